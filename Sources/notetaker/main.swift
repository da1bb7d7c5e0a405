import Foundation
import NoteTakerCLI

exit(await NoteTakerCommand.main())
