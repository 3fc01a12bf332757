import PenKit

/// What the kernel and libevdev do to events before libinput sees them.
extension TabletDecoder {
    mutating func receive(_ e: EvdevEvent, into out: inout [TabletEvent]) {
        if let dropTime = resyncTime {
            absorbWhileResyncing(e)
            if e.type == Code.evSyn && e.code == Code.synReport {
                resyncTime = nil
                emitResync(time: dropTime, into: &out)
            }
            return
        }
        if e.type == Code.evSyn && e.code == Code.synDropped {
            // libinput flushes the partial frame, then libevdev discards everything up to the
            // next SYN_REPORT and reports the difference to the device's real state.
            process(type: Code.evSyn, code: Code.synReport, value: 0, time: e.time, into: &out)
            resyncTime = e.time
            return
        }
        guard kernelPasses(e) else { return }
        deliver(e.type, e.code, e.value, time: e.time, into: &out)
    }

    /// input_get_disposition for a uinput device whose fuzz is 0: repeated key and axis values
    /// and zero relative motion are dropped, and so is a SYN_REPORT that closes an empty frame.
    private mutating func kernelPasses(_ e: EvdevEvent) -> Bool {
        switch e.type {
        case Code.evSyn:
            if e.code == Code.synReport {
                defer { frameHasEvents = false }
                return frameHasEvents
            }
            frameHasEvents = true
            return true
        case Code.evKey:
            guard Int(e.code) < kernelKeys.count, kernelCodes.contains(type: e.type, code: e.code) else { return false }
            if e.value == 2 { break }
            let down = e.value != 0
            if kernelKeys[Int(e.code)] == down { return false }
            kernelKeys[Int(e.code)] = down
        case Code.evAbs:
            guard Int(e.code) < kernelAbs.count, kernelCodes.contains(type: e.type, code: e.code) else { return false }
            if kernelAbs[Int(e.code)] == e.value { return false }
            kernelAbs[Int(e.code)] = e.value
        case Code.evRel:
            guard e.value != 0, kernelCodes.contains(type: e.type, code: e.code) else { return false }
        default:
            guard kernelCodes.contains(type: e.type, code: e.code) else { return false }
        }
        frameHasEvents = true
        return true
    }

    /// libevdev: drops codes libinput disabled, keeps the state libinput's getters read.
    private mutating func deliver(_ type: UInt16, _ code: UInt16, _ value: Int32, time: UInt64,
                                  into out: inout [TabletEvent]) {
        if type != Code.evSyn && !device.delivers(type, code) { return }
        if type == Code.evAbs { guard Int(code) < absValue.count else { return }; absValue[Int(code)] = value }
        if type == Code.evKey, Int(code) < libevdevKeys.count, value != 2 { libevdevKeys[Int(code)] = value != 0 }
        process(type: type, code: code, value: value, time: time, into: &out)
    }

    private mutating func absorbWhileResyncing(_ e: EvdevEvent) {
        switch e.type {
        case Code.evKey where Int(e.code) < kernelKeys.count && e.value != 2:
            kernelKeys[Int(e.code)] = e.value != 0
        case Code.evAbs where Int(e.code) < kernelAbs.count:
            kernelAbs[Int(e.code)] = e.value
        default:
            break
        }
    }

    /// libevdev's sync: keys, then absolute axes, in code order, then SYN_REPORT.
    private mutating func emitResync(time: UInt64, into out: inout [TabletEvent]) {
        for code in 0..<kernelKeys.count where kernelKeys[code] != libevdevKeys[code] {
            deliver(Code.evKey, UInt16(code), kernelKeys[code] ? 1 : 0, time: time, into: &out)
        }
        for code in 0..<Int(Code.absMtSlot) where kernelAbs[code] != absValue[code] {
            deliver(Code.evAbs, UInt16(code), kernelAbs[code], time: time, into: &out)
        }
        frameHasEvents = false
        deliver(Code.evSyn, Code.synReport, 0, time: time, into: &out)
    }
}
