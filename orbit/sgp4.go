package orbit

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// SGP4 propagates one element set with SGP4 as revised by Vallado,
// Crawford, Hujsak and Kelso, "Revisiting Spacetrack Report #3", AIAA
// 2006-6753 (sgp4init/sgp4 of its reference code, "improved" operation
// mode), with the WGS-72 constants of that paper. Orbits with a period of
// 225 min or more get SDP4's deep-space terms (lunar-solar secular and
// periodic perturbations, 12 h and 24 h geopotential resonances; see
// sdp4*.go). Positions and velocities come out in the TEME frame (km,
// km/s).
//
// Field names follow the paper's variables.
type SGP4 struct {
	tle   TLE
	epoch time.Time

	// Mean elements at epoch: radians, rad/min; no is un-Kozai'd.
	bstar, ecco, argpo, inclo, mo, no, nodeo float64

	isimp                         bool
	aycof, con41, cc1, cc4, cc5   float64
	d2, d3, d4, delmo, eta        float64
	argpdot, omgcof, sinmao       float64
	t2cof, t3cof, t4cof, t5cof    float64
	x1mth2, x7thm1, mdot, nodedot float64
	xlcof, xmcof, nodecf          float64

	ds *deepSpace // nil for near-Earth orbits
}

// Propagation errors (the reference code's error codes in brackets).
// They are values, so Propagate does not allocate.
var (
	ErrEccentricity          = errors.New("sgp4: mean eccentricity outside 0 ≤ e < 1 [1]")
	ErrMeanMotion            = errors.New("sgp4: mean motion ≤ 0 [2]")
	ErrPerturbedEccentricity = errors.New("sgp4: perturbed eccentricity outside 0 ≤ e ≤ 1 [3]")
	ErrSemiLatus             = errors.New("sgp4: semi-latus rectum < 0 [4]")
	ErrDecayed               = errors.New("sgp4: satellite has decayed (radius < 1 Earth radius) [6]")
	ErrTimeSpan              = errors.New("sgp4: time from epoch is not a number or beyond ±100 years")
)

// maxTsince bounds the time from epoch Propagate accepts, minutes (100
// Julian years). Element sets are fitted over days; the bound keeps the
// resonance integrator's 720-minute steps (at most 73,050) finite for any
// input, NaN included.
const maxTsince = 100 * 365.25 * minutesPerDay

// deepSpacePeriod is the period from which SGP4 switches to its
// deep-space (SDP4) branch (Vallado et al. 2006: 2π/no ≥ 225 min).
const deepSpacePeriod = 225.0

// NewSGP4 initialises the propagator for t (the reference code's sgp4init
// with initl, and dscom/dsinit for deep-space orbits). Elements that fail
// at epoch return the propagation error.
func NewSGP4(t TLE) (*SGP4, error) {
	const xpdotp = minutesPerDay / twoPi // rev/day per rad/min
	s := &SGP4{tle: t, epoch: t.Epoch}
	s.bstar = t.BStar
	s.ecco = t.Eccentricity
	s.argpo = t.ArgPerigee * deg2rad
	s.inclo = t.Inclination * deg2rad
	s.mo = t.MeanAnomaly * deg2rad
	s.nodeo = t.RAAN * deg2rad
	noKozai := t.MeanMotion / xpdotp
	if noKozai <= 0 {
		return nil, fmt.Errorf("sat %d: %w", t.SatNum, ErrMeanMotion)
	}
	if s.ecco < 0 || s.ecco >= 1 {
		return nil, fmt.Errorf("sat %d: %w", t.SatNum, ErrEccentricity)
	}

	// initl: recover the Brouwer mean motion from the Kozai one.
	const x2o3 = 2.0 / 3.0
	eccsq := s.ecco * s.ecco
	omeosq := 1 - eccsq
	rteosq := math.Sqrt(omeosq)
	cosio := math.Cos(s.inclo)
	cosio2 := cosio * cosio
	ak := math.Pow(xke/noKozai, x2o3)
	d1 := 0.75 * wgs72J2 * (3*cosio2 - 1) / (rteosq * omeosq)
	del := d1 / (ak * ak)
	adel := ak * (1 - del*del - del*(1.0/3.0+134*del*del/81))
	del = d1 / (adel * adel)
	s.no = noKozai / (1 + del)
	ao := math.Pow(xke/s.no, x2o3)
	sinio := math.Sin(s.inclo)
	po := ao * omeosq
	con42 := 1 - 5*cosio2
	s.con41 = -con42 - cosio2 - cosio2
	posq := po * po
	rp := ao * (1 - s.ecco)

	// sgp4init, near-Earth part.
	ss := 78.0/wgs72Radius + 1
	qzms2t := math.Pow((120.0-78.0)/wgs72Radius, 4)
	// Perigee below 220 km: the simplified drag equations (isimp).
	s.isimp = rp < 220.0/wgs72Radius+1
	sfour, qzms24 := ss, qzms2t
	perige := (rp - 1) * wgs72Radius
	if perige < 156 {
		sfour = perige - 78
		if perige < 98 {
			sfour = 20
		}
		qzms24 = math.Pow((120-sfour)/wgs72Radius, 4)
		sfour = sfour/wgs72Radius + 1
	}
	pinvsq := 1 / posq
	tsi := 1 / (ao - sfour)
	s.eta = ao * s.ecco * tsi
	etasq := s.eta * s.eta
	eeta := s.ecco * s.eta
	psisq := math.Abs(1 - etasq)
	coef := qzms24 * math.Pow(tsi, 4)
	coef1 := coef / math.Pow(psisq, 3.5)
	cc2 := coef1 * s.no * (ao*(1+1.5*etasq+eeta*(4+etasq)) +
		0.375*wgs72J2*tsi/psisq*s.con41*(8+3*etasq*(8+etasq)))
	s.cc1 = s.bstar * cc2
	cc3 := 0.0
	if s.ecco > 1e-4 {
		cc3 = -2 * coef * tsi * wgs72J3OverJ2 * s.no * sinio / s.ecco
	}
	s.x1mth2 = 1 - cosio2
	s.cc4 = 2 * s.no * coef1 * ao * omeosq * (s.eta*(2+0.5*etasq) + s.ecco*(0.5+2*etasq) -
		wgs72J2*tsi/(ao*psisq)*(-3*s.con41*(1-2*eeta+etasq*(1.5-0.5*eeta))+
			0.75*s.x1mth2*(2*etasq-eeta*(1+etasq))*math.Cos(2*s.argpo)))
	s.cc5 = 2 * coef1 * ao * omeosq * (1 + 2.75*(etasq+eeta) + eeta*etasq)
	cosio4 := cosio2 * cosio2
	temp1 := 1.5 * wgs72J2 * pinvsq * s.no
	temp2 := 0.5 * temp1 * wgs72J2 * pinvsq
	temp3 := -0.46875 * wgs72J4 * pinvsq * pinvsq * s.no
	s.mdot = s.no + 0.5*temp1*rteosq*s.con41 + 0.0625*temp2*rteosq*(13-78*cosio2+137*cosio4)
	s.argpdot = -0.5*temp1*con42 + 0.0625*temp2*(7-114*cosio2+395*cosio4) +
		temp3*(3-36*cosio2+49*cosio4)
	xhdot1 := -temp1 * cosio
	s.nodedot = xhdot1 + (0.5*temp2*(4-19*cosio2)+2*temp3*(3-7*cosio2))*cosio
	s.omgcof = s.bstar * cc3 * math.Cos(s.argpo)
	if s.ecco > 1e-4 {
		s.xmcof = -x2o3 * coef * s.bstar / eeta
	}
	s.nodecf = 3.5 * omeosq * xhdot1 * s.cc1
	s.t2cof = 1.5 * s.cc1
	// Guard the division for inclinations near 180° (temp4 = 1.5e-12).
	den := 1 + cosio
	if math.Abs(den) <= 1.5e-12 {
		den = 1.5e-12
	}
	s.xlcof = -0.25 * wgs72J3OverJ2 * sinio * (3 + 5*cosio) / den
	s.aycof = -0.5 * wgs72J3OverJ2 * sinio
	s.delmo = math.Pow(1+s.eta*math.Cos(s.mo), 3)
	s.sinmao = math.Sin(s.mo)
	s.x7thm1 = 7*cosio2 - 1
	if twoPi/s.no >= deepSpacePeriod {
		// Deep space: the simplified drag terms, plus SDP4.
		s.isimp = true
		s.ds = newDeepSpace(s, s.argpdot+s.nodedot)
	}
	if !s.isimp {
		cc1sq := s.cc1 * s.cc1
		s.d2 = 4 * ao * tsi * cc1sq
		temp := s.d2 * tsi * s.cc1 / 3
		s.d3 = (17*ao + sfour) * temp
		s.d4 = 0.5 * temp * ao * tsi * (221*ao + 31*sfour) * s.cc1
		s.t3cof = s.d2 + 2*cc1sq
		s.t4cof = 0.25 * (3*s.d3 + s.cc1*(12*s.d2+10*cc1sq))
		s.t5cof = 0.2 * (3*s.d4 + 12*s.cc1*s.d3 + 6*s.d2*s.d2 + 15*cc1sq*(2*s.d2+cc1sq))
	}
	// The reference code propagates to epoch once; so do we, to report
	// elements that are already unusable.
	if _, _, err := s.Propagate(0); err != nil {
		return nil, fmt.Errorf("sat %d at epoch: %w", t.SatNum, err)
	}
	return s, nil
}

// TLE returns the element set the propagator was built from.
func (s *SGP4) TLE() TLE { return s.tle }

// Epoch returns the element set's epoch.
func (s *SGP4) Epoch() time.Time { return s.epoch }

// At propagates to the instant t.
func (s *SGP4) At(t time.Time) (r, v Vec3, err error) {
	return s.Propagate(t.Sub(s.epoch).Minutes())
}

// meanElements are the elements between the propagator's stages: mean
// motion (rad/min), eccentricity, inclination, node, perigee and mean
// anomaly (radians).
type meanElements struct {
	n, em, incl, node, argp, m float64
}

// inclCoefs are the inclination-dependent coefficients of the long- and
// short-period periodics (fixed at epoch for SGP4, recomputed from the
// perturbed inclination at each step for SDP4).
type inclCoefs struct {
	sini, cosi            float64
	aycof, xlcof          float64
	con41, x1mth2, x7thm1 float64
}

// deepInclCoefs recomputes the coefficients from the perturbed
// inclination (the reference's sgp4, method 'd').
func deepInclCoefs(incl float64) inclCoefs {
	sini, cosi := math.Sin(incl), math.Cos(incl)
	den := 1 + cosi
	if math.Abs(den) <= 1.5e-12 {
		den = 1.5e-12
	}
	cosisq := cosi * cosi
	return inclCoefs{
		sini: sini, cosi: cosi,
		aycof:  -0.5 * wgs72J3OverJ2 * sini,
		xlcof:  -0.25 * wgs72J3OverJ2 * sini * (3 + 5*cosi) / den,
		con41:  3*cosisq - 1,
		x1mth2: 1 - cosisq,
		x7thm1: 7*cosisq - 1,
	}
}

// Propagate returns the TEME position (km) and velocity (km/s) tsince
// minutes after the epoch (the reference code's sgp4, with the SDP4
// deep-space terms for periods of 225 min and more). It does not
// allocate.
func (s *SGP4) Propagate(tsince float64) (r, v Vec3, err error) {
	const x2o3 = 2.0 / 3.0
	t := tsince
	if !(math.Abs(t) <= maxTsince) {
		return r, v, ErrTimeSpan
	}
	el, tempa, tempe, templ := s.secular(t)
	if s.ds != nil {
		s.ds.secular(t, &el)
	}
	if el.n <= 0 {
		return r, v, ErrMeanMotion
	}
	am := math.Pow(xke/el.n, x2o3) * tempa * tempa
	nm := xke / math.Pow(am, 1.5)
	el.em -= tempe
	if el.em >= 1 || el.em < -0.001 {
		return r, v, ErrEccentricity
	}
	if el.em < 1e-6 {
		el.em = 1e-6
	}
	el.m += s.no * templ
	xlm := el.m + el.argp + el.node
	el.node = math.Mod(el.node, twoPi)
	el.argp = math.Mod(el.argp, twoPi)
	xlm = math.Mod(xlm, twoPi)
	el.m = math.Mod(xlm-el.argp-el.node, twoPi)

	var c inclCoefs
	if s.ds != nil {
		if err := s.ds.periodics(t, &el); err != nil {
			return r, v, err
		}
		c = deepInclCoefs(el.incl)
	} else {
		c = inclCoefs{aycof: s.aycof, xlcof: s.xlcof, con41: s.con41, x1mth2: s.x1mth2, x7thm1: s.x7thm1}
		c.sini, c.cosi = math.Sincos(el.incl)
	}
	return s.periodicState(am, nm, el, c)
}

// secular returns the mean elements at t after secular gravity and drag,
// and the drag factors on a, e and the mean longitude.
func (s *SGP4) secular(t float64) (el meanElements, tempa, tempe, templ float64) {
	xmdf := s.mo + s.mdot*t
	argpdf := s.argpo + s.argpdot*t
	nodedf := s.nodeo + s.nodedot*t
	el = meanElements{n: s.no, em: s.ecco, incl: s.inclo, argp: argpdf, m: xmdf}
	t2 := t * t
	el.node = nodedf + s.nodecf*t2
	tempa = 1 - s.cc1*t
	tempe = s.bstar * s.cc4 * t
	templ = s.t2cof * t2
	if !s.isimp {
		delomg := s.omgcof * t
		delmtemp := 1 + s.eta*math.Cos(xmdf)
		delm := s.xmcof * (delmtemp*delmtemp*delmtemp - s.delmo)
		temp := delomg + delm
		el.m = xmdf + temp
		el.argp = argpdf - temp
		t3 := t2 * t
		t4 := t3 * t
		tempa = tempa - s.d2*t2 - s.d3*t3 - s.d4*t4
		tempe += s.bstar * s.cc5 * (math.Sin(el.m) - s.sinmao)
		templ += s.t3cof*t3 + t4*(s.t4cof+t*s.t5cof)
	}
	return el, tempa, tempe, templ
}

// periodicState adds the long-period and short-period periodics to the
// elements (semi-major axis am, mean motion nm) and returns position and
// velocity.
func (s *SGP4) periodicState(am, nm float64, el meanElements, c inclCoefs) (r, v Vec3, err error) {
	vkmpersec := wgs72Radius * xke / 60

	// Long-period periodics.
	axnl := el.em * math.Cos(el.argp)
	temp := 1 / (am * (1 - el.em*el.em))
	aynl := el.em*math.Sin(el.argp) + temp*c.aycof
	xl := el.m + el.argp + el.node + temp*c.xlcof*axnl

	sineo1, coseo1 := solveKepler(math.Mod(xl-el.node, twoPi), axnl, aynl)

	// Short-period periodics.
	ecose := axnl*coseo1 + aynl*sineo1
	esine := axnl*sineo1 - aynl*coseo1
	el2 := axnl*axnl + aynl*aynl
	pl := am * (1 - el2)
	if pl < 0 {
		return r, v, ErrSemiLatus
	}
	rl := am * (1 - ecose)
	rdotl := math.Sqrt(am) * esine / rl
	rvdotl := math.Sqrt(pl) / rl
	betal := math.Sqrt(1 - el2)
	temp = esine / (1 + betal)
	sinu := am / rl * (sineo1 - aynl - axnl*temp)
	cosu := am / rl * (coseo1 - axnl + aynl*temp)
	su := math.Atan2(sinu, cosu)
	sin2u := (cosu + cosu) * sinu
	cos2u := 1 - 2*sinu*sinu
	temp = 1 / pl
	temp1 := 0.5 * wgs72J2 * temp
	temp2 := temp1 * temp

	mrt := rl*(1-1.5*temp2*betal*c.con41) + 0.5*temp1*c.x1mth2*cos2u
	su -= 0.25 * temp2 * c.x7thm1 * sin2u
	xnode := el.node + 1.5*temp2*c.cosi*sin2u
	xinc := el.incl + 1.5*temp2*c.cosi*c.sini*cos2u
	mvt := rdotl - nm*temp1*c.x1mth2*sin2u/xke
	rvdot := rvdotl + nm*temp1*(c.x1mth2*cos2u+1.5*c.con41)/xke

	// Orientation vectors.
	sinsu, cossu := math.Sincos(su)
	snod, cnod := math.Sincos(xnode)
	sini, cosi := math.Sincos(xinc)
	xmx := -snod * cosi
	xmy := cnod * cosi
	ux := xmx*sinsu + cnod*cossu
	uy := xmy*sinsu + snod*cossu
	uz := sini * sinsu
	vx := xmx*cossu - cnod*sinsu
	vy := xmy*cossu - snod*sinsu
	vz := sini * cossu

	r = Vec3{mrt * ux * wgs72Radius, mrt * uy * wgs72Radius, mrt * uz * wgs72Radius}
	v = Vec3{(mvt*ux + rvdot*vx) * vkmpersec, (mvt*uy + rvdot*vy) * vkmpersec, (mvt*uz + rvdot*vz) * vkmpersec}
	if mrt < 1 {
		return r, v, ErrDecayed
	}
	return r, v, nil
}

// solveKepler solves Kepler's equation in the reference code's
// equinoctial form for the eccentric longitude E + ω, given its mean
// u = M + ω and (axnl, aynl) = e(cos ω, sin ω): Newton–Raphson, at most 10
// steps, each capped at 0.95 rad. It returns sin and cos of the solution's
// last iterate.
func solveKepler(u, axnl, aynl float64) (sineo1, coseo1 float64) {
	eo1 := u
	tem5 := 9999.9
	for ktr := 1; math.Abs(tem5) >= 1e-12 && ktr <= 10; ktr++ {
		sineo1, coseo1 = math.Sincos(eo1)
		tem5 = 1 - coseo1*axnl - sineo1*aynl
		tem5 = (u - aynl*coseo1 + axnl*sineo1 - eo1) / tem5
		if math.Abs(tem5) >= 0.95 {
			tem5 = math.Copysign(0.95, tem5)
		}
		eo1 += tem5
	}
	return sineo1, coseo1
}
