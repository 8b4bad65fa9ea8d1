extension HealthCatalog {
    /// The kind of value HealthKit's table says `key` holds, or `nil` for keys that are not HealthKit's.
    package static func metadataValueKind(forKey key: String) -> MetadataValueKind? {
        metadataValueKinds[key]
    }

    /// Parsed once from the generated table's "value type" text (e.g. `HKQuantity (length unit)`).
    private static let metadataValueKinds: [String: MetadataValueKind] = {
        var kinds: [String: MetadataValueKind] = [:]
        for (key, valueType) in metadataKeyValueTypes {
            kinds[key] = MetadataValueKind(tableText: valueType)
        }
        return kinds
    }()
}

extension MetadataValueKind {
    /// Interprets the reference table's wording of a key's expected value type.
    package init(tableText text: String) {
        if text.hasPrefix("NSString") {
            self = .string
        } else if text.hasPrefix("NSNumber") || text.hasPrefix("BOOL") {
            self = .number
        } else if text.hasPrefix("NSDate") {
            self = .date
        } else if text.hasPrefix("HKQuantity") {
            self = .quantity(MetadataValueKind.referenceUnit(in: text))
        } else {
            self = .any
        }
    }

    /// The unit a quantity-valued key's table text names, e.g. "HKQuantity (time unit)" → "s".
    private static func referenceUnit(in text: String) -> String? {
        let wording: [(String, String)] = [
            ("time unit", "s"), ("length unit", "m"), ("temperature unit", "K"), ("pressure unit", "Pa"),
            ("speed unit", "m/s"), ("percent", "%"), ("dBASPL", "dBASPL"), ("count/min", "count/min"),
            ("lux", "lx"), ("kcal/(kg*hr)", "kcal/(kg*hr)"), ("ml/kg·min", "mL/kg·min"),
        ]
        for (phrase, unit) in wording where text.contains(phrase) { return unit }
        return nil  // "unit compatible with the associated HKQuantitySample": the sample's own type
    }
}
