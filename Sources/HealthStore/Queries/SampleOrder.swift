/// One key of a sample query's sort order, as SQL can apply it with the (type, startDate) and (type, endDate) indexes.
package struct SampleOrder: Sendable, Hashable {
    package enum Key: String, Sendable {
        case startDate, endDate
    }

    package var key: Key
    package var ascending: Bool

    package init(key: Key, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }
}
