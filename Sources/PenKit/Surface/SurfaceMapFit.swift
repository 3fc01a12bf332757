/// One kernel report seen twice: where penkit put it on the tablet (mm) and where the app's
/// toolkit put it in the app's surface.
public struct SurfacePair: Sendable, Hashable {
    public var tabletX: Double, tabletY: Double
    public var surfaceX: Double, surfaceY: Double
    /// App time minus penkit's frame time (ms): at least the clocks' offset, more by the
    /// toolkit's flooring and any delivery delay.
    public var lag: Double
    /// The frame's time (µs), for the map's history.
    public var frameTime: UInt64

    public init(tabletX: Double, tabletY: Double, surfaceX: Double, surfaceY: Double, lag: Double, frameTime: UInt64) {
        self.tabletX = tabletX
        self.tabletY = tabletY
        self.surfaceX = surfaceX
        self.surfaceY = surfaceY
        self.lag = lag
        self.frameTime = frameTime
    }
}

/// A least-squares affine map over pairs: surface = A · tablet + t, six parameters, so offset,
/// scale, rotation, shear and flip are all one model.
struct SurfaceMapFit: Sendable {
    var transform: AffineTransform
    /// Root-mean-square distance (surface units) between the app's positions and the mapped ones.
    var rms: Double
    /// √ of the smaller eigenvalue of the tablet points' covariance (mm): how far the pairs spread
    /// in their thinnest direction. A map fitted to points on a line is not known across it.
    var spread: Double
    var count: Int

    /// The fit over `pairs`; nil with fewer than 3 or when they lie (numerically) on a line.
    static func fit(_ pairs: ArraySlice<SurfacePair>) -> SurfaceMapFit? {
        let n = Double(pairs.count)
        guard pairs.count >= 3 else { return nil }
        var mpx = 0.0, mpy = 0.0, mqx = 0.0, mqy = 0.0
        for p in pairs { mpx += p.tabletX; mpy += p.tabletY; mqx += p.surfaceX; mqy += p.surfaceY }
        mpx /= n; mpy /= n; mqx /= n; mqy /= n
        // Centred sums: the normal equations of both output coordinates share S.
        var sxx = 0.0, sxy = 0.0, syy = 0.0, uxx = 0.0, uxy = 0.0, uyx = 0.0, uyy = 0.0
        for p in pairs {
            let px = p.tabletX - mpx, py = p.tabletY - mpy, qx = p.surfaceX - mqx, qy = p.surfaceY - mqy
            sxx += px * px; sxy += px * py; syy += py * py
            uxx += qx * px; uxy += qx * py; uyx += qy * px; uyy += qy * py
        }
        let det = sxx * syy - sxy * sxy
        guard det > 1e-12 * (sxx + syy) * (sxx + syy), det.isFinite else { return nil }
        let a = (uxx * syy - uxy * sxy) / det, c = (uxy * sxx - uxx * sxy) / det
        let b = (uyx * syy - uyy * sxy) / det, d = (uyy * sxx - uyx * sxy) / det
        let transform = AffineTransform(a: a, b: b, c: c, d: d, tx: mqx - a * mpx - c * mpy, ty: mqy - b * mpx - d * mpy)
        let half = (sxx + syy) / (2 * n), diff = (sxx - syy) / (2 * n), off = sxy / n
        let smaller = half - (diff * diff + off * off).squareRoot()
        return SurfaceMapFit(transform: transform, rms: rmsResidual(transform, pairs), spread: max(smaller, 0).squareRoot(), count: pairs.count)
    }

    /// The standard error (surface units) of the mapped position `reach` mm from the pairs'
    /// centre in their thinnest direction: the residual as the noise (corrected for the three
    /// parameters per coordinate), grown by how far that lies out of the pairs' spread.
    func standardError(reach: Double) -> Double {
        guard count > 3, spread > 0 else { return .infinity }
        let n = Double(count)
        let noise = rms * (n / (n - 3)).squareRoot()
        return noise * ((1 + reach * reach / (spread * spread)) / n).squareRoot()
    }

    /// `linear`'s rotation, scale and flip kept, its offset refitted to `pairs`: what a moved
    /// window changes, known again from a single pair.
    static func translated(_ linear: AffineTransform, to pairs: ArraySlice<SurfacePair>) -> AffineTransform {
        var sx = 0.0, sy = 0.0
        for p in pairs {
            sx += p.surfaceX - (linear.a * p.tabletX + linear.c * p.tabletY)
            sy += p.surfaceY - (linear.b * p.tabletX + linear.d * p.tabletY)
        }
        let n = Double(max(pairs.count, 1))
        var moved = linear
        moved.tx = sx / n
        moved.ty = sy / n
        return moved
    }

    static func residual(_ t: AffineTransform, _ p: SurfacePair) -> Double {
        let q = t.apply(x: p.tabletX, y: p.tabletY)
        let dx = q.x - p.surfaceX, dy = q.y - p.surfaceY
        return (dx * dx + dy * dy).squareRoot()
    }

    static func rmsResidual(_ t: AffineTransform, _ pairs: ArraySlice<SurfacePair>) -> Double {
        guard !pairs.isEmpty else { return 0 }
        var sum = 0.0
        for p in pairs { let r = residual(t, p); sum += r * r }
        return (sum / Double(pairs.count)).squareRoot()
    }
}
