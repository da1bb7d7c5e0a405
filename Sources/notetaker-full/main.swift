import Foundation
import NoteTakerCLIFull

exit(await NoteTakerFullCommand.main())
