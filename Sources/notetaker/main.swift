import Foundation
import NoteTakerCLI

exit(NoteTakerCommand.main())
