package orbit

import "math"

// SDP4's lunar and solar perturbations: the geometry of each perturbing
// body relative to the orbit at epoch (the reference code's dscom), the
// secular rates it drives (first half of dsinit) and the long-period
// periodics evaluated at each step (dpper). Behaviour and constants follow
// Hujsak's SDP4 in Hoots and Roehrich, Spacetrack Report #3 (1980), as
// revised by Vallado, Crawford, Hujsak and Kelso, "Revisiting Spacetrack
// Report #3", AIAA 2006-6753, and its sgp4unit reference code.

// Lunar-solar constants of SDP4 (Spacetrack Report #3, DEEP; Vallado et
// al. 2006, dscom/dpper). Angles in radians, rates in rad/min.
const (
	zes    = 0.01675      // eccentricity of the Sun's apparent orbit
	zel    = 0.05490      // eccentricity of the Moon's orbit
	zns    = 1.19459e-5   // Sun's mean motion, rad/min
	znl    = 1.5835218e-4 // Moon's mean motion, rad/min
	c1ss   = 2.9864797e-6 // solar perturbation coefficient
	c1l    = 4.7968065e-7 // lunar perturbation coefficient
	zsinis = 0.39785416   // sin and cos of the ecliptic's obliquity
	zcosis = 0.91744867
	zcosgs = 0.1945905 // cos and sin of the Sun's argument of perigee
	zsings = -0.98088458
	// Inclinations within 3° of 0 or 180° drop the node terms (the
	// reference's "sgp4fix for 180 deg incl", 5.2359877e-2 rad).
	nearEquatorial = 5.2359877e-2
	// Below 0.2 rad (11.46°) of perturbed inclination the periodics are
	// applied with Lyddane's modification (Vallado et al. 2006, §"Lyddane").
	lyddaneIncl = 0.2
)

// orbitAngles is the orbit's orientation and shape at epoch, as the
// lunar-solar terms see it.
type orbitAngles struct {
	sinim, cosim, sinomm, cosomm, snodm, cnodm float64
	em, emsq, betasq, rtemsq, xnoi             float64
}

// thirdBody is one body's coupling to the orbit (dscom's s1…s7 and
// z1…z33 for the Moon, ss1…ss7 and sz1…sz33 for the Sun).
type thirdBody struct {
	s1, s2, s3, s4, s5, s6, s7               float64
	z1, z2, z3, z11, z12, z13, z21, z22, z23 float64
	z31, z32, z33                            float64
}

// newThirdBody evaluates the coupling of a body whose orbit has the given
// argument of perigee (zcosg, zsing), inclination (zcosi, zsini) and node
// relative to the satellite's node (zcosh, zsinh), with strength cc.
func newThirdBody(zcosg, zsing, zcosi, zsini, zcosh, zsinh, cc float64, o orbitAngles) thirdBody {
	a1 := zcosg*zcosh + zsing*zcosi*zsinh
	a3 := -zsing*zcosh + zcosg*zcosi*zsinh
	a7 := -zcosg*zsinh + zsing*zcosi*zcosh
	a8 := zsing * zsini
	a9 := zsing*zsinh + zcosg*zcosi*zcosh
	a10 := zcosg * zsini
	a2 := o.cosim*a7 + o.sinim*a8
	a4 := o.cosim*a9 + o.sinim*a10
	a5 := -o.sinim*a7 + o.cosim*a8
	a6 := -o.sinim*a9 + o.cosim*a10

	x1 := a1*o.cosomm + a2*o.sinomm
	x2 := a3*o.cosomm + a4*o.sinomm
	x3 := -a1*o.sinomm + a2*o.cosomm
	x4 := -a3*o.sinomm + a4*o.cosomm
	x5, x6 := a5*o.sinomm, a6*o.sinomm
	x7, x8 := a5*o.cosomm, a6*o.cosomm

	var b thirdBody
	e2 := o.emsq
	b.z31 = 12*x1*x1 - 3*x3*x3
	b.z32 = 24*x1*x2 - 6*x3*x4
	b.z33 = 12*x2*x2 - 3*x4*x4
	z1 := 3*(a1*a1+a2*a2) + b.z31*e2
	z2 := 6*(a1*a3+a2*a4) + b.z32*e2
	z3 := 3*(a3*a3+a4*a4) + b.z33*e2
	b.z11 = -6*a1*a5 + e2*(-24*x1*x7-6*x3*x5)
	b.z12 = -6*(a1*a6+a3*a5) + e2*(-24*(x2*x7+x1*x8)-6*(x3*x6+x4*x5))
	b.z13 = -6*a3*a6 + e2*(-24*x2*x8-6*x4*x6)
	b.z21 = 6*a2*a5 + e2*(24*x1*x5-6*x3*x7)
	b.z22 = 6*(a4*a5+a2*a6) + e2*(24*(x2*x5+x1*x6)-6*(x4*x7+x3*x8))
	b.z23 = 6*a4*a6 + e2*(24*x2*x6-6*x4*x8)
	b.z1 = z1 + z1 + o.betasq*b.z31
	b.z2 = z2 + z2 + o.betasq*b.z32
	b.z3 = z3 + z3 + o.betasq*b.z33
	b.s3 = cc * o.xnoi
	b.s2 = -0.5 * b.s3 / o.rtemsq
	b.s4 = b.s3 * o.rtemsq
	b.s1 = -15 * o.em * b.s4
	b.s5 = x1*x3 + x2*x4
	b.s6 = x2*x3 + x1*x4
	b.s7 = x2*x4 - x1*x3
	return b
}

// lunarSolarBodies returns the Sun's and the Moon's coupling to the orbit
// and their mean anomalies at day (days since 1900 Jan 0.5, dscom's day).
func lunarSolarBodies(o orbitAngles, day float64) (sun, moon thirdBody, zmos, zmol float64) {
	// The Moon's node, inclination and perigee at day (dscom).
	xnodce := math.Mod(4.5236020-9.2422029e-4*day, twoPi)
	stem, ctem := math.Sin(xnodce), math.Cos(xnodce)
	zcosil := 0.91375164 - 0.03568096*ctem
	zsinil := math.Sqrt(1 - zcosil*zcosil)
	zsinhl := 0.089683511 * stem / zsinil
	zcoshl := math.Sqrt(1 - zsinhl*zsinhl)
	gam := 5.8351514 + 0.0019443680*day
	zx := 0.39785416 * stem / zsinil
	zy := zcoshl*ctem + 0.91744867*zsinhl*stem
	zx = gam + math.Atan2(zx, zy) - xnodce
	zcosgl, zsingl := math.Cos(zx), math.Sin(zx)

	sun = newThirdBody(zcosgs, zsings, zcosis, zsinis, o.cnodm, o.snodm, c1ss, o)
	moon = newThirdBody(zcosgl, zsingl, zcosil, zsinil,
		zcoshl*o.cnodm+zsinhl*o.snodm, o.snodm*zcoshl-o.cnodm*zsinhl, c1l, o)
	zmol = math.Mod(4.7199672+0.22997150*day-gam, twoPi)
	zmos = math.Mod(6.2565837+0.017201977*day, twoPi)
	return sun, moon, zmos, zmol
}

// lsPeriodic is one body's long-period periodic coefficients (dscom's
// se2…sh3 for the Sun, ee2…xh3 for the Moon) with the body's orbit.
type lsPeriodic struct {
	ze, zn, zmo                               float64 // eccentricity, mean motion, mean anomaly at epoch
	e2, e3, i2, i3, l2, l3, l4, gh2, gh3, gh4 float64
	h2, h3                                    float64
}

func (b thirdBody) periodic(ze, zn, zmo, emsq float64) lsPeriodic {
	return lsPeriodic{
		ze: ze, zn: zn, zmo: zmo,
		e2: 2 * b.s1 * b.s6, e3: 2 * b.s1 * b.s7,
		i2: 2 * b.s2 * b.z12, i3: 2 * b.s2 * (b.z13 - b.z11),
		l2: -2 * b.s3 * b.z2, l3: -2 * b.s3 * (b.z3 - b.z1),
		l4:  -2 * b.s3 * (-21 - 9*emsq) * ze,
		gh2: 2 * b.s4 * b.z32, gh3: 2 * b.s4 * (b.z33 - b.z31), gh4: -18 * b.s4 * ze,
		h2: -2 * b.s2 * b.z22, h3: -2 * b.s2 * (b.z23 - b.z21),
	}
}

// at evaluates the periodics t minutes after epoch: eccentricity,
// inclination, mean longitude, perigee and node contributions.
func (p *lsPeriodic) at(t float64) (pe, pinc, pl, pgh, ph float64) {
	zm := p.zmo + p.zn*t
	zf := zm + 2*p.ze*math.Sin(zm)
	sinzf := math.Sin(zf)
	f2 := 0.5*sinzf*sinzf - 0.25
	f3 := -0.5 * sinzf * math.Cos(zf)
	pe = p.e2*f2 + p.e3*f3
	pinc = p.i2*f2 + p.i3*f3
	pl = p.l2*f2 + p.l3*f3 + p.l4*sinzf
	pgh = p.gh2*f2 + p.gh3*f3 + p.gh4*sinzf
	ph = p.h2*f2 + p.h3*f3
	return
}

// secularRates are the lunar-solar secular rates of the mean elements,
// rad/min (dsinit's dedt, didt, dmdt, domdt, dnodt; dedt per minute).
type secularRates struct {
	dedt, didt, dmdt, domdt, dnodt float64
}

// lunarSolarRates sums the Sun's and the Moon's secular rates (dsinit,
// "do solar terms" and "do lunar terms").
func lunarSolarRates(sun, moon thirdBody, o orbitAngles, inclm float64) secularRates {
	body := func(b thirdBody, zn float64) (de, di, dm, dgh, dh float64) {
		de = b.s1 * zn * b.s5
		di = b.s2 * zn * (b.z11 + b.z13)
		dm = -zn * b.s3 * (b.z1 + b.z3 - 14 - 6*o.emsq)
		dgh = b.s4 * zn * (b.z31 + b.z33 - 6)
		dh = -zn * b.s2 * (b.z21 + b.z23)
		if inclm < nearEquatorial || inclm > math.Pi-nearEquatorial {
			dh = 0
		}
		return
	}
	ses, sis, sls, sghs, shs := body(sun, zns)
	sel, sil, sll, sghl, shl := body(moon, znl)
	var r secularRates
	if o.sinim != 0 {
		shs /= o.sinim
	}
	r.dedt = ses + sel
	r.didt = sis + sil
	r.dmdt = sls + sll
	r.domdt = sghs - o.cosim*shs + sghl
	r.dnodt = shs
	if o.sinim != 0 {
		r.domdt -= o.cosim / o.sinim * shl
		r.dnodt += shl / o.sinim
	}
	return r
}

// applyPeriodics adds the Sun's and Moon's long-period periodics at t to
// the mean elements (dpper, "improved" operation mode). The reference
// code's epoch offsets peo…pho are zero (dscom sets them and nothing
// changes them), so none are subtracted.
func applyPeriodics(sun, moon *lsPeriodic, t, ep, inclp, nodep, argpp, mp float64) (float64, float64, float64, float64, float64) {
	ses, sis, sls, sghs, shs := sun.at(t)
	sel, sil, sll, sghl, shl := moon.at(t)
	pe, pinc, pl, pgh, ph := ses+sel, sis+sil, sls+sll, sghs+sghl, shs+shl
	inclp += pinc
	ep += pe
	sinip, cosip := math.Sin(inclp), math.Cos(inclp)
	if inclp >= lyddaneIncl {
		ph /= sinip
		pgh -= cosip * ph
		return ep, inclp, nodep + ph, argpp + pgh, mp + pl
	}
	// Lyddane's modification: perturb the node through the direction
	// cosines (sin i sin Ω, sin i cos Ω), which stay regular as i → 0.
	sinop, cosop := math.Sin(nodep), math.Cos(nodep)
	alfdp := sinip*sinop + (ph*cosop + pinc*cosip*sinop)
	betdp := sinip*cosop + (-ph*sinop + pinc*cosip*cosop)
	nodep = math.Mod(nodep, twoPi)
	xls := mp + argpp + cosip*nodep
	xls += pl + pgh - pinc*nodep*sinip
	xnoh := nodep
	nodep = math.Atan2(alfdp, betdp)
	if math.Abs(xnoh-nodep) > math.Pi {
		if nodep < xnoh {
			nodep += twoPi
		} else {
			nodep -= twoPi
		}
	}
	mp += pl
	return ep, inclp, nodep, xls - mp - cosip*nodep, mp
}
