// OpenHealthKit: HealthKit's public API on Linux and servers.
//
// User code switches platforms with one conditional import:
//
//     #if canImport(HealthKit)
//     import HealthKit
//     #else
//     import OpenHealthKit
//     #endif
//
// The value layer (identifiers, units, quantities, samples, errors) lives in `HealthModel`
// and is re-exported here, so `import OpenHealthKit` is all a program needs.
@_exported public import HealthModel
// `import HealthKit` makes Foundation visible to the importing file (dates, calendars, predicates, sort descriptors,
// Dispatch's queues): real HealthKit files import nothing else, so `import OpenHealthKit` does the same.
@_exported public import Foundation
