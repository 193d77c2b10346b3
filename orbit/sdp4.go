package orbit

import "math"

// deepSpace is SDP4's state for an orbit of period ≥ 225 min: the Sun's
// and Moon's long-period periodic coefficients, the lunar-solar secular
// rates and the geopotential resonance terms (Vallado et al. 2006,
// sgp4init's "deep space initialization": dscom, dpper, dsinit).
type deepSpace struct {
	sun, moon lsPeriodic
	rates     secularRates
	res       resonance
}

// jd1950 is the Julian date of 1950 January 0.0 UTC (1949-12-31T00:00Z),
// the origin of the reference code's epoch in days. Like the reference,
// the epoch goes through its float64 Julian date first: that rounds it to
// 2^-31 day (40 µs), and the lunar-solar phases of very eccentric high
// orbits turn that into millimetres (23333, e = 0.97, differs from
// tcppver.out by 4 mm at epoch from the exact epoch and by 0.1 mm with the
// reference's rounding).
const jd1950 = 2433281.5

// dscomDayOffset turns days since 1950 Jan 0.0 into dscom's day, days
// since 1900 Jan 0.5 (JD 2415020.0).
const dscomDayOffset = 18261.5

// newDeepSpace initialises the deep-space terms of s, whose near-Earth
// secular rates are already set; xpidot is argpdot + nodedot.
func newDeepSpace(s *SGP4, xpidot float64) *deepSpace {
	eccsq := s.ecco * s.ecco
	o := orbitAngles{
		sinim: math.Sin(s.inclo), cosim: math.Cos(s.inclo),
		sinomm: math.Sin(s.argpo), cosomm: math.Cos(s.argpo),
		snodm: math.Sin(s.nodeo), cnodm: math.Cos(s.nodeo),
		em: s.ecco, emsq: eccsq, betasq: 1 - eccsq,
		xnoi: 1 / s.no,
	}
	o.rtemsq = math.Sqrt(o.betasq)
	days1950 := julianDate(s.epoch) - jd1950
	sun, moon, zmos, zmol := lunarSolarBodies(o, days1950+dscomDayOffset)
	d := &deepSpace{
		sun:   sun.periodic(zes, zns, zmos, o.emsq),
		moon:  moon.periodic(zel, znl, zmol, o.emsq),
		rates: lunarSolarRates(sun, moon, o, s.inclo),
	}
	// The reference applies dpper at epoch here with init = 'y', which
	// leaves the elements unchanged; there is nothing to do.
	d.res = newResonance(s, o, d.rates, GMST(s.epoch), xpidot)
	return d
}

// secular adds the lunar-solar secular drift and the resonance to the
// near-Earth secular elements at t minutes (dspace).
func (d *deepSpace) secular(t float64, el *meanElements) {
	el.em += d.rates.dedt * t
	el.incl += d.rates.didt * t
	el.argp += d.rates.domdt * t
	el.node += d.rates.dnodt * t
	el.m += d.rates.dmdt * t
	if d.res.kind != noResonance {
		el.m, el.n = d.res.at(t, el.node, el.argp)
	}
}

// periodics adds the lunar-solar long-period periodics at t (dpper) and
// folds a negative inclination back (the reference's sgp4 after dpper).
func (d *deepSpace) periodics(t float64, el *meanElements) error {
	el.em, el.incl, el.node, el.argp, el.m = applyPeriodics(&d.sun, &d.moon, t,
		el.em, el.incl, el.node, el.argp, el.m)
	if el.incl < 0 {
		el.incl = -el.incl
		el.node += math.Pi
		el.argp -= math.Pi
	}
	if el.em < 0 || el.em > 1 {
		return ErrPerturbedEccentricity
	}
	return nil
}
