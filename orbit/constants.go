package orbit

import (
	"math"
	"time"
)

// WGS-72 constants used by SGP4. SGP4's mean elements are fitted with
// these values, so the propagator must use them (Vallado et al. 2006,
// §"Gravitational constants", getgravconst "wgs72").
const (
	wgs72Mu       = 398600.8       // km³/s², Earth's gravitational parameter
	wgs72Radius   = 6378.135       // km, equatorial radius
	wgs72J2       = 0.001082616    // second zonal harmonic
	wgs72J3       = -0.00000253881 // third zonal harmonic
	wgs72J4       = -0.00000165597 // fourth zonal harmonic
	wgs72J3OverJ2 = wgs72J3 / wgs72J2
)

// xke is sqrt(mu/R³) in Earth radii^1.5 per minute, SGP4's unit of mean
// motion (Vallado et al. 2006: xke = 60/sqrt(R³/mu)).
var xke = 60.0 / math.Sqrt(wgs72Radius*wgs72Radius*wgs72Radius/wgs72Mu)

// WGS-84 constants for ground stations and the Walker shells
// (NIMA TR8350.2, 3rd ed., 2000, tables 3.1 and 3.2).
const (
	wgs84A  = 6378.137          // km, semi-major axis
	wgs84F  = 1 / 298.257223563 // flattening
	wgs84Mu = 398600.4418       // km³/s², GM with the atmosphere
	wgs84J2 = 1.08262982e-3     // J2 = −√5·C̄20, C̄20 = −0.484166774985e-3 (table 5.3)
)

// Earth's rotation and light.
const (
	// earthRotation is the mean angular velocity of the Earth, rad/s
	// (WGS-84, NIMA TR8350.2 table 3.1).
	earthRotation = 7.292115e-5
	// SpeedOfLight in vacuum, km/s (exact, SI definition of the metre).
	// Seed 000 eq. 13 divides every space leg by c.
	SpeedOfLight = 299792.458
	// FibreIndex is the group index of standard single-mode fibre at
	// 1550 nm (ITU-T G.652 fibre, Corning SMF-28: 1.4682); we use 1.47, so
	// light in fibre travels at c/1.47 ≈ 0.68 c (~204,000 km/s).
	FibreIndex = 1.47
)

const (
	twoPi         = 2 * math.Pi
	deg2rad       = math.Pi / 180
	rad2deg       = 180 / math.Pi
	minutesPerDay = 1440.0
)

// epochUnix is 2026-04-01T00:00:00Z, leolab's reference instant (seed
// 000's campaign ran in April 2026).
const epochUnix = 1775001600

// Epoch is leolab's reference instant: where the Walker shells' satellites
// start (plane 0's node at right ascension 0, its satellite 0 at the node),
// `leolab orbit path`'s default --start, and the UTC day the simulator
// places a run without epoch_utc on (scenario). One instant for all three,
// so that a scenario and the command line see the same constellation at
// the same time.
func Epoch() time.Time { return time.Unix(epochUnix, 0).UTC() }
