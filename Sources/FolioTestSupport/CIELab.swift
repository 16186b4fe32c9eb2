import Foundation

/// A colour in CIELAB (D65 white, as sRGB's), for telling how far apart two colours look: the
/// colour tests judge conversions by CIEDE2000 (ΔE00), where about 1 is the smallest difference
/// an eye sees side by side and 2 is hard to see in photos.
public struct CIELab: Sendable, Equatable, CustomStringConvertible {
    public var L: Double
    public var a: Double
    public var b: Double

    public init(L: Double, a: Double, b: Double) {
        self.L = L
        self.a = a
        self.b = b
    }

    /// An 8-bit sRGB colour: IEC 61966-2-1's curve and matrix to XYZ, then CIE 1976 L*a*b*.
    public init(sRGB red: Double, _ green: Double, _ blue: Double) {
        func linear(_ value: Double) -> Double {
            let v = value / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(red), linear(green), linear(blue))
        let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x / 0.95047), f(y / 1.0), f(z / 1.08883))
        self.init(L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    public var description: String { String(format: "Lab(%.2f, %.2f, %.2f)", L, a, b) }

    /// CIEDE2000, as Sharma, Wu and Dalal (2005) set it out, with kL = kC = kH = 1: their
    /// equations 1 to 22, including the hue-angle and mean-hue cases their paper points out
    /// implementations get wrong.
    public func difference2000(to other: CIELab) -> Double {
        let (L1, a1, b1) = (L, a, b)
        let (L2, a2, b2) = (other.L, other.a, other.b)
        let degrees = 180 / Double.pi
        let C1 = hypot(a1, b1), C2 = hypot(a2, b2)
        let meanC = (C1 + C2) / 2
        let meanC7 = pow(meanC, 7)
        let G = 0.5 * (1 - sqrt(meanC7 / (meanC7 + pow(25, 7))))
        let a1p = (1 + G) * a1, a2p = (1 + G) * a2
        let C1p = hypot(a1p, b1), C2p = hypot(a2p, b2)
        func hue(_ b: Double, _ ap: Double) -> Double {
            if b == 0 && ap == 0 { return 0 }
            let h = atan2(b, ap) * degrees
            return h < 0 ? h + 360 : h
        }
        let h1p = hue(b1, a1p), h2p = hue(b2, a2p)
        let dLp = L2 - L1
        let dCp = C2p - C1p
        var dhp = 0.0
        if C1p * C2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * sqrt(C1p * C2p) * sin(dhp / 2 / degrees)
        let meanLp = (L1 + L2) / 2
        let meanCp = (C1p + C2p) / 2
        var meanhp = h1p + h2p
        if C1p * C2p != 0 {
            if abs(h1p - h2p) <= 180 {
                meanhp /= 2
            } else {
                meanhp = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2
            }
        }
        let T = 1 - 0.17 * cos((meanhp - 30) / degrees) + 0.24 * cos(2 * meanhp / degrees)
            + 0.32 * cos((3 * meanhp + 6) / degrees) - 0.20 * cos((4 * meanhp - 63) / degrees)
        let dTheta = 30 * exp(-pow((meanhp - 275) / 25, 2))
        let meanCp7 = pow(meanCp, 7)
        let RC = 2 * sqrt(meanCp7 / (meanCp7 + pow(25, 7)))
        let SL = 1 + 0.015 * pow(meanLp - 50, 2) / sqrt(20 + pow(meanLp - 50, 2))
        let SC = 1 + 0.045 * meanCp
        let SH = 1 + 0.015 * meanCp * T
        let RT = -sin(2 * dTheta / degrees) * RC
        let l = dLp / SL, c = dCp / SC, h = dHp / SH
        return sqrt(l * l + c * c + h * h + RT * c * h)
    }
}
