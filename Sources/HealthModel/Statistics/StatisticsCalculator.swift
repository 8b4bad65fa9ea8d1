import Foundation

/// Computes HealthKit statistics over buckets of time from samples of one quantity type, with the rules of
/// `reference/statistics-semantics.md`:
///
/// - **Cumulative, merged**: Health Connect's priority sweep. Over every sample start, sample end and bucket
///   border, each slice of time takes the prorated value (value × slice / duration) of the single
///   highest-ordered sample covering it — higher source priority first, then the later saved, the later start,
///   the later end, the larger value. Lower sources count only where no higher one has data. A zero-length
///   sample counts its whole value once, in the bucket holding its instant (an instant on a border belongs to
///   the bucket that starts there).
/// - **Cumulative, per source** (`separateBySource`): each source's samples prorated over the buckets they
///   overlap, with no priority filtering.
/// - **Discrete**: a sample belongs whole to the bucket holding its start. Arithmetic types average by count;
///   temporally weighted types (heart rate) weigh each sample by its duration, or an instant by the time it
///   holds until the next sample (at most `holdCap`; the last reading, whose hold is unknown, weighs nothing
///   unless nothing else weighs either, when the mean is by count); equivalent-continuous-level types (audio exposure, dBASPL)
///   give Leq = 10·log10(Σ dᵢ·10^(Lᵢ/10) / Σ dᵢ). Minimum and maximum are plain.
/// - **mostRecent**: the sample with the latest start in the bucket (ties: the later saved).
/// - **duration**: the length of the union of the samples' intervals inside the bucket (overlaps count once).
///
/// Values are in the type's base unit (as the store keeps them); `levels` converts base values to and from the
/// decibel scale for Leq.
package struct StatisticsCalculator: Sendable {
    /// One sample as statistics see it.
    package struct Sample: Sendable {
        package var start: Double
        package var end: Double
        /// In the type's base unit.
        package var value: Double
        /// The source's place in the priority order: 0 is the highest.
        package var sourceRank: Int
        /// When it was saved (later wins among samples of one source).
        package var savedAt: Double

        package init(start: Double, end: Double, value: Double, sourceRank: Int, savedAt: Double) {
            self.start = start
            self.end = end
            self.value = value
            self.sourceRank = sourceRank
            self.savedAt = savedAt
        }
    }

    /// The statistics of one bucket, for all sources merged or for one source. `nil` = not asked or no data.
    package struct Values: Sendable, Equatable {
        package var sum: Double?
        package var minimum: Double?
        package var maximum: Double?
        package var average: Double?
        package var mostRecent: (value: Double, start: Double, end: Double)?
        package var duration: Double?

        package init() {}

        package static func == (a: Values, b: Values) -> Bool {
            a.sum == b.sum && a.minimum == b.minimum && a.maximum == b.maximum && a.average == b.average
                && a.mostRecent?.value == b.mostRecent?.value && a.mostRecent?.start == b.mostRecent?.start
                && a.mostRecent?.end == b.mostRecent?.end && a.duration == b.duration
        }
    }

    /// One bucket's result: merged values, and per source rank when `separateBySource` was asked. `nil` merged
    /// values mean no sample contributed.
    package struct Bucket: Sendable, Equatable {
        package var merged: Values?
        package var bySource: [Int: Values]
    }

    package let style: HKQuantityAggregationStyle
    package let options: HKStatisticsOptions
    /// How long an instantaneous sample of a temporally weighted type holds its value at most, in seconds.
    package var holdCap: Double = 600
    /// How merged sums treat overlapping sources.
    package var mergeMode: HKStatisticsMergeMode = .exact
    /// Base value ↔ decibels, for equivalent-continuous-level types.
    package var toLevel: @Sendable (Double) -> Double = { $0 }
    package var fromLevel: @Sendable (Double) -> Double = { $0 }

    package init(style: HKQuantityAggregationStyle, options: HKStatisticsOptions) {
        self.style = style
        self.options = options
    }

    /// Checks that `options` suit a type of `style`, as HealthKit does (it raises; we throw). The messages are
    /// HealthKit's.
    package static func validate(_ options: HKStatisticsOptions, for type: HKQuantityType) throws {
        let names: [(HKStatisticsOptions, String)] = [
            (.discreteAverage, "HKStatisticsOptionDiscreteAverage"), (.discreteMin, "HKStatisticsOptionDiscreteMin"),
            (.discreteMax, "HKStatisticsOptionDiscreteMax"), (.cumulativeSum, "HKStatisticsOptionCumulativeSum"),
        ]
        let known: HKStatisticsOptions = [.separateBySource, .discreteAverage, .discreteMin, .discreteMax, .cumulativeSum, .mostRecent, .duration]
        guard known.isSuperset(of: options) else {
            throw HKError.invalidArgument("unknown statistics options (raw value \(options.rawValue))")
        }
        let cumulative = type.aggregationStyle == .cumulative
        for (option, name) in names where options.contains(option) {
            if cumulative && option != .cumulativeSum {
                throw HKError.invalidArgument("Statistics option \(name) is not compatible with cumulative data type \(type.identifier)")
            }
            if !cumulative && option == .cumulativeSum {
                throw HKError.invalidArgument("Statistics option \(name) is not compatible with discrete data type \(type.identifier)")
            }
        }
    }

    /// Statistics for the buckets `[borders[i], borders[i+1])` from `samples` (any order). Samples outside every
    /// bucket are ignored; a cumulative sample spanning a border is split in proportion to time.
    package func compute(_ samples: [Sample], borders: [Double]) -> [Bucket] {
        let bucketCount = max(borders.count - 1, 0)
        var buckets = [Bucket](repeating: Bucket(merged: nil, bySource: [:]), count: bucketCount)
        guard bucketCount > 0, !samples.isEmpty else { return buckets }
        let perSource = options.contains(.separateBySource)

        if style == .cumulative {
            if options.contains(.cumulativeSum) {
                let sums = mergeMode == .exact ? mergedSums(samples, borders: borders) : gridMergedSums(samples, borders: borders)
                for (index, sum) in sums.enumerated() where sum != nil {
                    buckets[index].merged = buckets[index].merged ?? Values()
                    buckets[index].merged!.sum = sum
                }
                if perSource {
                    forEachPiece(samples, borders: borders) { bucket, sample, from, to in
                        buckets[bucket].bySource[sample.sourceRank, default: Values()].sum =
                            (buckets[bucket].bySource[sample.sourceRank]?.sum ?? 0) + Self.prorated(sample, from, to)
                    }
                }
            }
        } else {
            discrete(samples, borders: borders, into: &buckets)
        }
        if options.contains(.mostRecent) { mostRecent(samples, borders: borders, into: &buckets) }
        if options.contains(.duration) { durations(samples, borders: borders, into: &buckets) }
        // A bucket any sample touched has (possibly empty) merged values, so "no data" stays distinguishable.
        if perSource {
            for index in buckets.indices where !buckets[index].bySource.isEmpty && buckets[index].merged == nil {
                buckets[index].merged = Values()
            }
        } else {
            for index in buckets.indices { buckets[index].bySource = [:] }
        }
        return buckets
    }

    /// The bucket holding instant `t` (half-open buckets), or nil.
    private static func bucket(of t: Double, in borders: [Double]) -> Int? {
        guard let first = borders.first, let last = borders.last, t >= first, t < last else { return nil }
        var low = 0, high = borders.count - 1  // borders[low] <= t < borders[high]
        while high - low > 1 {
            let mid = (low + high) / 2
            if borders[mid] <= t { low = mid } else { high = mid }
        }
        return low
    }

    /// Calls `body(bucket, sample, pieceStart, pieceEnd)` for every part of every sample inside a bucket: the
    /// sample clipped to each bucket it overlaps; an instant, whole, in the bucket holding it.
    private func forEachPiece(_ samples: [Sample], borders: [Double], _ body: (Int, Sample, Double, Double) -> Void) {
        guard let first = borders.first, let last = borders.last else { return }
        for sample in samples {
            if sample.end <= sample.start {
                if let bucket = Self.bucket(of: sample.start, in: borders) { body(bucket, sample, sample.start, sample.start) }
                continue
            }
            // (An inverted window — start after end, from contradictory date ranges — holds no time: nothing to cut.)
            guard sample.end > first, sample.start < last, var bucket = Self.bucket(of: max(sample.start, first), in: borders) else {
                continue
            }
            while bucket < borders.count - 1, borders[bucket] < sample.end {
                let from = max(sample.start, borders[bucket]), to = min(sample.end, borders[bucket + 1])
                if to > from { body(bucket, sample, from, to) }
                bucket += 1
            }
        }
    }

    /// A piece's share of its sample's value: in proportion to time, or all of an instant's.
    private static func prorated(_ sample: Sample, _ from: Double, _ to: Double) -> Double {
        let length = sample.end - sample.start
        return length > 0 ? sample.value * (to - from) / length : sample.value
    }

    // MARK: - The priority sweep

    /// Health Connect's sweep (see the type's documentation); nil where nothing contributed.
    func mergedSums(_ samples: [Sample], borders: [Double]) -> [Double?] {
        let bucketCount = borders.count - 1
        var sums = [Double?](repeating: nil, count: bucketCount)
        guard let windowStart = borders.first, let windowEnd = borders.last else { return sums }

        // Rank every sample in "record order", lowest first: source priority (rank 0 is highest, so it sorts
        // last), then saved time, start, end, value.
        let candidates = samples.indices.filter { i in
            let s = samples[i]
            return s.end >= s.start && s.end >= windowStart && s.start < windowEnd && (s.end > windowStart || s.start == s.end)
        }
        let ordered = candidates.sorted { a, b in
            let x = samples[a], y = samples[b]
            if x.sourceRank != y.sourceRank { return x.sourceRank > y.sourceRank }
            if x.savedAt != y.savedAt { return x.savedAt < y.savedAt }
            if x.start != y.start { return x.start < y.start }
            if x.end != y.end { return x.end < y.end }
            return x.value < y.value
        }
        var position = [Int32](repeating: 0, count: samples.count)
        for (rank, index) in ordered.enumerated() { position[index] = Int32(rank) }

        // Events: at equal times border < start < end; equal kinds by record order.
        struct Event { var time: Double; var key: Int64 }  // key = kind << 32 | record position (borders: position 0)
        var events: [Event] = []
        events.reserveCapacity(ordered.count * 2 + borders.count)
        for border in borders { events.append(Event(time: border, key: 0)) }
        for index in ordered {
            let p = Int64(position[index])
            events.append(Event(time: samples[index].start, key: 1 << 32 | p))
            events.append(Event(time: samples[index].end, key: 2 << 32 | p))
        }
        events.sort { $0.time != $1.time ? $0.time < $1.time : $0.key < $1.key }

        // Open records: a max-heap of positions, closed ones removed lazily.
        var heap = MaxHeap()
        var closed = [Bool](repeating: false, count: ordered.count)
        var instantCounted = [Bool](repeating: false, count: ordered.count)
        var group = -1
        for i in 0..<(events.count - 1) {
            let event = events[i], kind = event.key >> 32, p = Int(event.key & 0xFFFF_FFFF)
            switch kind {
            case 0: group += 1
            case 1: heap.push(Int32(p))
            default: closed[p] = true
            }
            guard group >= 0, group < bucketCount else { continue }
            while let top = heap.top, closed[Int(top)] { heap.pop() }
            guard let top = heap.top else { continue }
            let sample = samples[ordered[Int(top)]]
            let length = sample.end - sample.start
            let contribution: Double
            if length == 0 {
                guard !instantCounted[Int(top)] else { continue }
                instantCounted[Int(top)] = true
                contribution = sample.value
            } else {
                let slice = events[i + 1].time - event.time
                guard slice > 0 else { continue }
                contribution = sample.value * slice / length
            }
            sums[group] = (sums[group] ?? 0) + contribution
        }
        return sums
    }

    /// Merged sums as HealthKit's daemon is observed to make them (`appleGrid900`): from the first border, each cut
    /// goes to the next sample start or end floored to the 900-second grid (at least one grid cell ahead), or to
    /// the next border when that comes first. In each cut every sample contributes its prorated overlap (an instant
    /// its whole value), and only the pieces of the top-ranked source present count; same-source pieces all add.
    func gridMergedSums(_ samples: [Sample], borders: [Double], cell: Double = 900) -> [Double?] {
        let bucketCount = borders.count - 1
        var sums = [Double?](repeating: nil, count: bucketCount)
        guard let windowStart = borders.first, let windowEnd = borders.last else { return sums }
        let inWindow = samples.filter { $0.end >= $0.start && $0.end >= windowStart && $0.start < windowEnd && ($0.end > windowStart || $0.start == $0.end) }
        guard !inWindow.isEmpty else { return sums }
        let byStart = inWindow.sorted { $0.start < $1.start }
        var times = Array(Set(inWindow.flatMap { [$0.start, $0.end] }).filter { $0 > windowStart && $0 < windowEnd }).sorted()
        times.append(windowEnd)

        var active: [Sample] = [], nextSample = 0, nextTime = 0, bucket = 0
        var position = windowStart
        while position < windowEnd {
            while bucket + 1 < bucketCount, borders[bucket + 1] <= position { bucket += 1 }
            let border = borders[bucket + 1]
            while nextTime < times.count, times[nextTime] <= position { nextTime += 1 }
            var cut = border
            if nextTime < times.count, times[nextTime] < border {
                var gridded = (times[nextTime] / cell).rounded(.down) * cell
                if gridded <= position { gridded = (position / cell).rounded(.down) * cell + cell }
                cut = min(gridded, border)
            }
            // Samples that may have a piece in [position, cut).
            while nextSample < byStart.count, byStart[nextSample].start < cut {
                active.append(byStart[nextSample])
                nextSample += 1
            }
            active.removeAll { $0.end < position || ($0.end == position && $0.end > $0.start) }
            var top = Int.max, total = 0.0
            for sample in active {
                let length = sample.end - sample.start
                let piece: Double
                if length == 0 {
                    guard sample.start >= position, sample.start < cut else { continue }
                    piece = sample.value
                } else {
                    let overlap = min(sample.end, cut) - max(sample.start, position)
                    guard overlap > 0 else { continue }
                    piece = sample.value * overlap / length
                }
                if sample.sourceRank < top { (top, total) = (sample.sourceRank, piece) } else if sample.sourceRank == top { total += piece }
            }
            if top != Int.max { sums[bucket] = (sums[bucket] ?? 0) + total }
            position = cut
        }
        return sums
    }

    // MARK: - Discrete, most recent, duration

    private func discrete(_ samples: [Sample], borders: [Double], into buckets: inout [Bucket]) {
        let wantAverage = options.contains(.discreteAverage)
        let wantMin = options.contains(.discreteMin), wantMax = options.contains(.discreteMax)
        guard wantAverage || wantMin || wantMax else { return }
        let perSource = options.contains(.separateBySource)

        struct Accumulator {
            var weight = 0.0, weighted = 0.0, count = 0, plainSum = 0.0
            var minimum = Double.infinity, maximum = -Double.infinity
        }
        var merged = [Accumulator?](repeating: nil, count: buckets.count)
        var bySource = [[Int: Accumulator]](repeating: [:], count: buckets.count)

        // Weights for the temporally weighted style: hold until the next sample, among all sources for the merged
        // figure and within the source for its own.
        let byStart = samples.indices.sorted { samples[$0].start < samples[$1].start }
        func holdWeights(_ order: [Int]) -> [Int: Double] {
            var weights: [Int: Double] = [:]
            for (n, index) in order.enumerated() {
                let s = samples[index]
                if s.end > s.start { weights[index] = s.end - s.start; continue }
                let next = order[(n + 1)...].first { samples[$0].start > s.start }.map { samples[$0].start }
                weights[index] = min(next.map { $0 - s.start } ?? 0, holdCap)  // the last reading's hold is unknown
            }
            return weights
        }
        let weighted = style == .discreteTemporallyWeighted
        let mergedWeights = weighted ? holdWeights(byStart) : [:]
        var sourceWeights: [Int: [Int: Double]] = [:]
        if weighted && perSource {
            for (rank, indices) in Dictionary(grouping: byStart, by: { samples[$0].sourceRank }) {
                sourceWeights[rank] = holdWeights(indices)
            }
        }

        func add(_ value: Double, weight: Double, to accumulator: inout Accumulator) {
            accumulator.count += 1
            accumulator.plainSum += value
            accumulator.minimum = min(accumulator.minimum, value)
            accumulator.maximum = max(accumulator.maximum, value)
            switch style {
            case .discreteEquivalentContinuousLevel:
                accumulator.weight += weight
                accumulator.weighted += weight * pow(10, toLevel(value) / 10)
            default:
                accumulator.weight += weight
                accumulator.weighted += weight * value
            }
        }
        for index in byStart {
            let s = samples[index]
            guard let bucket = Self.bucket(of: s.start, in: borders) else { continue }
            let duration = s.end - s.start
            let weight: Double = switch style {
            case .discreteTemporallyWeighted: mergedWeights[index] ?? 0
            case .discreteEquivalentContinuousLevel: duration
            default: 1
            }
            var accumulator = merged[bucket] ?? Accumulator()
            add(s.value, weight: weight, to: &accumulator)
            merged[bucket] = accumulator
            if perSource {
                let own = style == .discreteTemporallyWeighted ? sourceWeights[s.sourceRank]?[index] ?? 0 : weight
                add(s.value, weight: own, to: &bySource[bucket][s.sourceRank, default: Accumulator()])
            }
        }

        func values(_ a: Accumulator, into values: inout Values) {
            if wantMin { values.minimum = a.minimum }
            if wantMax { values.maximum = a.maximum }
            if wantAverage {
                switch style {
                case .discreteEquivalentContinuousLevel:
                    values.average = a.weight > 0 ? fromLevel(10 * log10(a.weighted / a.weight)) : fromLevel(0)
                case .discreteTemporallyWeighted:
                    values.average = a.weight > 0 ? a.weighted / a.weight : a.plainSum / Double(a.count)
                default:
                    values.average = a.plainSum / Double(a.count)
                }
            }
        }
        for bucket in buckets.indices {
            if let a = merged[bucket] {
                var v = buckets[bucket].merged ?? Values()
                values(a, into: &v)
                buckets[bucket].merged = v
            }
            for (rank, a) in bySource[bucket] { values(a, into: &buckets[bucket].bySource[rank, default: Values()]) }
        }
    }

    private func mostRecent(_ samples: [Sample], borders: [Double], into buckets: inout [Bucket]) {
        func later(_ a: Sample, than b: (value: Double, start: Double, end: Double, savedAt: Double)?) -> Bool {
            guard let b else { return true }
            return a.start != b.start ? a.start > b.start : a.savedAt >= b.savedAt
        }
        var merged = [(value: Double, start: Double, end: Double, savedAt: Double)?](repeating: nil, count: buckets.count)
        var bySource = [[Int: (value: Double, start: Double, end: Double, savedAt: Double)]](repeating: [:], count: buckets.count)
        for s in samples {
            guard let bucket = Self.bucket(of: s.start, in: borders) else { continue }
            if later(s, than: merged[bucket]) { merged[bucket] = (s.value, s.start, s.end, s.savedAt) }
            if later(s, than: bySource[bucket][s.sourceRank]) { bySource[bucket][s.sourceRank] = (s.value, s.start, s.end, s.savedAt) }
        }
        for bucket in buckets.indices {
            if let m = merged[bucket] {
                buckets[bucket].merged = buckets[bucket].merged ?? Values()
                buckets[bucket].merged!.mostRecent = (m.value, m.start, m.end)
            }
            if options.contains(.separateBySource) {
                for (rank, m) in bySource[bucket] { buckets[bucket].bySource[rank, default: Values()].mostRecent = (m.value, m.start, m.end) }
            }
        }
    }

    private func durations(_ samples: [Sample], borders: [Double], into buckets: inout [Bucket]) {
        // Clip every sample to each bucket it overlaps, then measure the union per bucket (and per source).
        var pieces = [[(start: Double, end: Double, rank: Int)]](repeating: [], count: buckets.count)
        forEachPiece(samples, borders: borders) { bucket, sample, from, to in pieces[bucket].append((from, to, sample.sourceRank)) }
        func union(_ intervals: [(start: Double, end: Double, rank: Int)]) -> Double {
            var total = 0.0
            var current: (start: Double, end: Double)?
            for piece in intervals.sorted(by: { $0.start < $1.start }) {
                if let open = current, piece.start <= open.end {
                    current!.end = max(open.end, piece.end)
                } else {
                    if let open = current { total += open.end - open.start }
                    current = (piece.start, piece.end)
                }
            }
            return total + (current.map { $0.end - $0.start } ?? 0)
        }
        for bucket in buckets.indices where !pieces[bucket].isEmpty {
            buckets[bucket].merged = buckets[bucket].merged ?? Values()
            buckets[bucket].merged!.duration = union(pieces[bucket])
            if options.contains(.separateBySource) {
                for (rank, own) in Dictionary(grouping: pieces[bucket], by: \.rank) {
                    buckets[bucket].bySource[rank, default: Values()].duration = union(own)
                }
            }
        }
    }
}

/// A binary max-heap of record positions.
private struct MaxHeap {
    private var items: [Int32] = []

    var top: Int32? { items.first }

    mutating func push(_ value: Int32) {
        items.append(value)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent] < items[child] else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < items.count, items[left] > items[largest] { largest = left }
            if right < items.count, items[right] > items[largest] { largest = right }
            guard largest != parent else { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}
