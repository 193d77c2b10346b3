package orbit

import "math"

// SDP4's geopotential resonances: orbits whose period is near one
// sidereal day (synchronous, 24 h) or half of one with e ≥ 0.5 (Molniya-
// like, 12 h) feel tesseral harmonics that do not average out. Their
// effect on mean motion and mean longitude is integrated numerically with
// a fixed 720-minute Euler–Maclaurin step (Spacetrack Report #3, DEEP
// "DPSEC"; Vallado et al. 2006, dsinit and dspace).

// Resonance constants (Vallado et al. 2006, dsinit/dspace).
const (
	// rptim is Earth's rotation rate, rad/min (7.29211514668855e-5 rad/s).
	rptim = 4.37526908801129966e-3
	// Synchronous-resonance coefficients q22, q31, q33 and phases.
	q22, q31, q33        = 1.7891679e-6, 2.1460748e-6, 2.2123015e-7
	fasx2, fasx4, fasx6  = 0.13130908, 2.8843198, 0.37448087
	root22, root32       = 1.7891679e-6, 3.7393792e-7
	root44, root52       = 7.3636953e-9, 1.1428639e-7
	root54               = 2.1765803e-9
	g22, g32, g44        = 5.7686396, 0.95240898, 1.8014998
	g52, g54             = 1.0508330, 4.4108898
	resonanceStep        = 720.0                             // min, integrator step
	resonanceStep2       = resonanceStep * resonanceStep / 2 // 259200 min²
	syncLo, syncHi       = 0.0034906585, 0.0052359877        // rad/min: periods 1200–1800 min
	halfDayLo, halfDayHi = 8.26e-3, 9.24e-3                  // rad/min: periods 680–761 min
	halfDayMinEcc        = 0.5                               // 12 h resonance needs e ≥ 0.5
)

// resonanceKind is dsinit's irez: none, synchronous (1) or half-day (2).
type resonanceKind int

const (
	noResonance resonanceKind = iota
	synchronous
	halfDay
)

// resonance holds the resonance terms of one orbit.
type resonance struct {
	kind resonanceKind
	// Half-day coefficients.
	d2201, d2211, d3210, d3222, d4410, d4422, d5220, d5232, d5421, d5433 float64
	// Synchronous coefficients.
	del1, del2, del3 float64
	// xfact is the resonant longitude's rate less the mean motion,
	// xlamo its value at epoch; gsto the sidereal angle at epoch.
	xfact, xlamo, gsto float64
	// Epoch elements the integrator starts from and uses.
	no, argpo, argpdot float64
}

// resonanceKindOf classifies mean motion nm (rad/min) and eccentricity em.
func resonanceKindOf(nm, em float64) resonanceKind {
	switch {
	case nm > syncLo && nm < syncHi:
		return synchronous
	case nm >= halfDayLo && nm <= halfDayHi && em >= halfDayMinEcc:
		return halfDay
	}
	return noResonance
}

// newResonance initialises the resonance terms (dsinit, "initialize the
// resonance terms") from the SGP4 state s, the epoch geometry o and the
// lunar-solar secular rates r.
func newResonance(s *SGP4, o orbitAngles, r secularRates, gsto, xpidot float64) resonance {
	res := resonance{kind: resonanceKindOf(s.no, s.ecco), gsto: gsto,
		no: s.no, argpo: s.argpo, argpdot: s.argpdot}
	if res.kind == noResonance {
		return res
	}
	aonv := math.Pow(s.no/xke, 2.0/3.0)
	theta := math.Mod(gsto, twoPi)
	cosim, sinim := o.cosim, o.sinim
	if res.kind == synchronous {
		emsq := o.emsq
		g200 := 1 + emsq*(-2.5+0.8125*emsq)
		g310 := 1 + 2*emsq
		g300 := 1 + emsq*(-6+6.60937*emsq)
		f220 := 0.75 * (1 + cosim) * (1 + cosim)
		f311 := 0.9375*sinim*sinim*(1+3*cosim) - 0.75*(1+cosim)
		f330 := 1 + cosim
		f330 = 1.875 * f330 * f330 * f330
		del1 := 3 * s.no * s.no * aonv * aonv
		res.del2 = 2 * del1 * f220 * g200 * q22
		res.del3 = 3 * del1 * f330 * g300 * q33 * aonv
		res.del1 = del1 * f311 * g310 * q31 * aonv
		res.xlamo = math.Mod(s.mo+s.nodeo+s.argpo-theta, twoPi)
		res.xfact = s.mdot + xpidot - rptim + r.dmdt + r.domdt + r.dnodt - s.no
		return res
	}
	res.halfDayCoefficients(s.ecco, cosim, sinim, s.no, aonv)
	res.xlamo = math.Mod(s.mo+s.nodeo+s.nodeo-theta-theta, twoPi)
	res.xfact = s.mdot + r.dmdt + 2*(s.nodedot+r.dnodt-rptim) - s.no
	return res
}

// halfDayCoefficients sets d2201…d5433 from the eccentricity polynomials
// G(e) and inclination functions F(i) of the 12 h tesseral terms (dsinit,
// "geopotential resonance for 12 hour orbits").
func (res *resonance) halfDayCoefficients(em, cosim, sinim, nm, aonv float64) {
	emsq := em * em
	eoc := em * emsq
	cosisq := cosim * cosim
	g201 := -0.306 - (em-0.64)*0.440
	var g211, g310, g322, g410, g422, g520, g521, g532, g533 float64
	if em <= 0.65 {
		g211 = 3.616 - 13.2470*em + 16.2900*emsq
		g310 = -19.302 + 117.3900*em - 228.4190*emsq + 156.5910*eoc
		g322 = -18.9068 + 109.7927*em - 214.6334*emsq + 146.5816*eoc
		g410 = -41.122 + 242.6940*em - 471.0940*emsq + 313.9530*eoc
		g422 = -146.407 + 841.8800*em - 1629.014*emsq + 1083.4350*eoc
		g520 = -532.114 + 3017.977*em - 5740.032*emsq + 3708.2760*eoc
	} else {
		g211 = -72.099 + 331.819*em - 508.738*emsq + 266.724*eoc
		g310 = -346.844 + 1582.851*em - 2415.925*emsq + 1246.113*eoc
		g322 = -342.585 + 1554.908*em - 2366.899*emsq + 1215.972*eoc
		g410 = -1052.797 + 4758.686*em - 7193.992*emsq + 3651.957*eoc
		g422 = -3581.690 + 16178.110*em - 24462.770*emsq + 12422.520*eoc
		if em > 0.715 {
			g520 = -5149.66 + 29936.92*em - 54087.36*emsq + 31324.56*eoc
		} else {
			g520 = 1464.74 - 4664.75*em + 3763.64*emsq
		}
	}
	if em < 0.7 {
		g533 = -919.22770 + 4988.6100*em - 9064.7700*emsq + 5542.21*eoc
		g521 = -822.71072 + 4568.6173*em - 8491.4146*emsq + 5337.524*eoc
		g532 = -853.66600 + 4690.2500*em - 8624.7700*emsq + 5341.4*eoc
	} else {
		g533 = -37995.780 + 161616.52*em - 229838.20*emsq + 109377.94*eoc
		g521 = -51752.104 + 218913.95*em - 309468.16*emsq + 146349.42*eoc
		g532 = -40023.880 + 170470.89*em - 242699.48*emsq + 115605.82*eoc
	}
	sini2 := sinim * sinim
	f220 := 0.75 * (1 + 2*cosim + cosisq)
	f221 := 1.5 * sini2
	f321 := 1.875 * sinim * (1 - 2*cosim - 3*cosisq)
	f322 := -1.875 * sinim * (1 + 2*cosim - 3*cosisq)
	f441 := 35 * sini2 * f220
	f442 := 39.3750 * sini2 * sini2
	f522 := 9.84375 * sinim * (sini2*(1-2*cosim-5*cosisq) + 0.33333333*(-2+4*cosim+6*cosisq))
	f523 := sinim * (4.92187512*sini2*(-2-4*cosim+10*cosisq) + 6.56250012*(1+2*cosim-3*cosisq))
	f542 := 29.53125 * sinim * (2 - 8*cosim + cosisq*(-12+8*cosim+10*cosisq))
	f543 := 29.53125 * sinim * (-2 - 8*cosim + cosisq*(12+8*cosim-10*cosisq))

	temp1 := 3 * nm * nm * aonv * aonv
	temp := temp1 * root22
	res.d2201 = temp * f220 * g201
	res.d2211 = temp * f221 * g211
	temp1 *= aonv
	temp = temp1 * root32
	res.d3210 = temp * f321 * g310
	res.d3222 = temp * f322 * g322
	temp1 *= aonv
	temp = 2 * temp1 * root44
	res.d4410 = temp * f441 * g410
	res.d4422 = temp * f442 * g422
	temp1 *= aonv
	temp = temp1 * root52
	res.d5220 = temp * f522 * g520
	res.d5232 = temp * f523 * g532
	temp = 2 * temp1 * root54
	res.d5421 = temp * f542 * g521
	res.d5433 = temp * f543 * g533
}

// rates returns the resonant longitude's rate and the mean motion's first
// and second derivatives at integrator state (xli, xni, atime).
func (res *resonance) rates(xli, xni, atime float64) (xldot, xndt, xnddt float64) {
	xldot = xni + res.xfact
	if res.kind == synchronous {
		xndt = res.del1*math.Sin(xli-fasx2) + res.del2*math.Sin(2*(xli-fasx4)) +
			res.del3*math.Sin(3*(xli-fasx6))
		xnddt = res.del1*math.Cos(xli-fasx2) + 2*res.del2*math.Cos(2*(xli-fasx4)) +
			3*res.del3*math.Cos(3*(xli-fasx6))
		return xldot, xndt, xnddt * xldot
	}
	xomi := res.argpo + res.argpdot*atime
	x2omi := xomi + xomi
	x2li := xli + xli
	xndt = res.d2201*math.Sin(x2omi+xli-g22) + res.d2211*math.Sin(xli-g22) +
		res.d3210*math.Sin(xomi+xli-g32) + res.d3222*math.Sin(-xomi+xli-g32) +
		res.d4410*math.Sin(x2omi+x2li-g44) + res.d4422*math.Sin(x2li-g44) +
		res.d5220*math.Sin(xomi+xli-g52) + res.d5232*math.Sin(-xomi+xli-g52) +
		res.d5421*math.Sin(xomi+x2li-g54) + res.d5433*math.Sin(-xomi+x2li-g54)
	xnddt = res.d2201*math.Cos(x2omi+xli-g22) + res.d2211*math.Cos(xli-g22) +
		res.d3210*math.Cos(xomi+xli-g32) + res.d3222*math.Cos(-xomi+xli-g32) +
		res.d5220*math.Cos(xomi+xli-g52) + res.d5232*math.Cos(-xomi+xli-g52) +
		2*(res.d4410*math.Cos(x2omi+x2li-g44)+res.d4422*math.Cos(x2li-g44)+
			res.d5421*math.Cos(xomi+x2li-g54)+res.d5433*math.Cos(-xomi+x2li-g54))
	return xldot, xndt, xnddt * xldot
}

// at integrates the resonance from epoch to t minutes and returns the
// mean anomaly and mean motion it implies, given the node and perigee of
// the secular update (dspace). The reference code resumes from the last
// call's integrator state; the steps lie on the same 720-minute lattice
// from epoch either way, so integrating from epoch gives the same numbers
// and keeps Propagate free of state.
func (res *resonance) at(t, nodem, argpm float64) (mm, nm float64) {
	theta := math.Mod(res.gsto+t*rptim, twoPi)
	delt := resonanceStep
	if t <= 0 {
		delt = -resonanceStep
	}
	xli, xni, atime := res.xlamo, res.no, 0.0
	var xldot, xndt, xnddt float64
	for {
		xldot, xndt, xnddt = res.rates(xli, xni, atime)
		if math.Abs(t-atime) < resonanceStep {
			break
		}
		xli += xldot*delt + xndt*resonanceStep2
		xni += xndt*delt + xnddt*resonanceStep2
		atime += delt
	}
	ft := t - atime
	nm = xni + xndt*ft + xnddt*ft*ft*0.5
	xl := xli + xldot*ft + xndt*ft*ft*0.5
	if res.kind == synchronous {
		mm = xl - nodem - argpm + theta
	} else {
		mm = xl - 2*nodem + 2*theta
	}
	// The reference forms nm as no + (nm − no); keep its rounding.
	return mm, res.no + (nm - res.no)
}
