import CLinuxCalls

/// glibc raises its mmap threshold each time a large block is freed, up to 32 MiB, after which
/// blocks that size come from the heap and stay resident when freed. A long stroke's line and
/// samples are tens of MiB held for a moment: fixing the threshold keeps every block over it in
/// its own mapping, returned to the system as soon as it is freed, so penkitd's resident memory
/// falls back after a long stroke instead of keeping its peak.
enum LargeAllocations {
    static let mappedFromBytes: Int32 = 1 << 20

    static func returnToSystemWhenFreed() {
        _ = penkit_set_mmap_threshold(mappedFromBytes)
    }
}
