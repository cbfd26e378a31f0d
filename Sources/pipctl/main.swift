import Foundation

exit(await Pipctl.main())
