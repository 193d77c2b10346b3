package orbit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// gatewaySource says where the gateway table comes from.
const gatewaySource = "SpaceX gateway earth-station sites named in FCC (IBFS/ICFS) and ACMA licence records; " +
	"coordinates are the nearest town's, good to ~10 km, not the antennas'"

// gateways are Starlink gateway (ground station) sites that a bent pipe
// can land at. Town-level coordinates: the delay error this causes is
// ~0.03 ms per 10 km.
var gateways = []Site{
	// United States (FCC earth-station applications by SpaceX Services).
	{Name: "hawthorne-ca", Lat: 33.92, Lon: -118.35},
	{Name: "arbuckle-ca", Lat: 39.02, Lon: -122.06},
	{Name: "tionesta-ca", Lat: 41.64, Lon: -121.33},
	{Name: "redmond-wa", Lat: 47.67, Lon: -122.12},
	{Name: "prosser-wa", Lat: 46.21, Lon: -119.77},
	{Name: "conrad-mt", Lat: 48.17, Lon: -111.95},
	{Name: "hitterdal-mn", Lat: 46.98, Lon: -96.26},
	{Name: "merrillan-wi", Lat: 44.45, Lon: -90.84},
	{Name: "manistique-mi", Lat: 45.96, Lon: -86.25},
	{Name: "greenville-pa", Lat: 41.40, Lon: -80.39},
	{Name: "litchfield-ct", Lat: 41.75, Lon: -73.19},
	{Name: "beekmantown-ny", Lat: 44.77, Lon: -73.49},
	{Name: "loring-me", Lat: 46.95, Lon: -67.89},
	{Name: "baxley-ga", Lat: 31.78, Lon: -82.35},
	{Name: "punta-gorda-fl", Lat: 26.93, Lon: -82.05},
	{Name: "boca-chica-tx", Lat: 25.99, Lon: -97.16},
	// Australia (ACMA register of radiocommunications licences).
	{Name: "calrossie-vic", Lat: -38.45, Lon: 146.60},
	{Name: "torrumbarry-vic", Lat: -35.97, Lon: 144.47},
	{Name: "boorowa-nsw", Lat: -34.44, Lon: 148.72},
	{Name: "cobargo-nsw", Lat: -36.39, Lon: 149.89},
	{Name: "canyonleigh-nsw", Lat: -34.56, Lon: 150.13},
	{Name: "broken-hill-nsw", Lat: -31.95, Lon: 141.45},
	{Name: "bogantungan-qld", Lat: -23.65, Lon: 147.29},
	{Name: "merredin-wa", Lat: -31.48, Lon: 118.28},
}

// Gateways returns the built-in gateway table (a copy), each site's
// Source set.
func Gateways() []Site {
	out := append([]Site(nil), gateways...)
	for i := range out {
		out[i].Source = gatewaySource
	}
	return out
}

// NearestGateway returns the gateway of gws closest to s on the ground.
func NearestGateway(gws []Site, s Site) (Site, float64) {
	best, bestD := Site{}, math.Inf(1)
	for _, g := range gws {
		if d := GreatCircle(g, s); d < bestD {
			best, bestD = g, d
		}
	}
	return best, bestD
}

// ParseLatLon parses "LAT,LON" in decimal degrees (−90..90, −180..180).
func ParseLatLon(s string) (Site, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return Site{}, fmt.Errorf("%q: want LAT,LON in decimal degrees, e.g. -37.85,145.11", s)
	}
	var v [2]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) {
			return Site{}, fmt.Errorf("%q: %q is not a number of degrees", s, p)
		}
		v[i] = x
	}
	if v[0] < -90 || v[0] > 90 {
		return Site{}, fmt.Errorf("%q: latitude %v outside -90..90", s, v[0])
	}
	if v[1] < -180 || v[1] > 180 {
		return Site{}, fmt.Errorf("%q: longitude %v outside -180..180", s, v[1])
	}
	return Site{Name: s, Lat: v[0], Lon: v[1]}, nil
}
