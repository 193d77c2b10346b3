package scenario_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/scenario"
)

// CUBIC and Reno over every city profile in both directions finish with
// plausible results: non-zero throughput below the direction's maximum
// allocation, and RTT never below the city's idle RTT (the minimum seen in
// the real data, which the profiles reproduce).
func TestStarlinkCities(t *testing.T) {
	for _, city := range profile.Cities() {
		idle, err := profile.CityIdleRTT(city)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := profile.Starlink(city, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range scenario.Directions {
			maxRate := sp.Downlink.MaxRate()
			if dir == "uplink" {
				maxRate = sp.Uplink.MaxRate()
			}
			for _, cca := range []string{"cubic", "reno"} {
				name := fmt.Sprintf("%s-%s-%s", city, dir, cca)
				t.Run(name, func(t *testing.T) {
					yaml := fmt.Sprintf("version: 1\nname: %s\nduration: 60s\npath: {profile: starlink, city: %s, direction: %s}\nflows: [{cca: %s}]\n", name, city, dir, cca)
					_, spec, err := scenario.ParseSpec(name+".yaml", []byte(yaml))
					if err != nil {
						t.Fatal(err)
					}
					if d := spec.BaseRTT - idle; d < -2*time.Millisecond || d > 2*time.Millisecond {
						t.Errorf("path base RTT %v, city idle RTT %v", spec.BaseRTT, idle)
					}
					res, err := netsim.Run(spec)
					if err != nil {
						t.Fatal(err)
					}
					f := res.Flows[0]
					t.Logf("%.1f Mbit/s, %d retransmits, min RTT %.1f ms, mean %.1f ms", f.ThroughputMbps, f.Retransmits, f.MinRTTMs, f.MeanRTTMs)
					if f.ThroughputMbps <= 0.5 || f.ThroughputMbps*1e6 >= maxRate {
						t.Errorf("throughput %.2f Mbit/s outside (0.5, %.0f)", f.ThroughputMbps, maxRate/1e6)
					}
					// Reconfiguration outages (45 ms DL, 68 ms UL) are far
					// shorter than RTO ≥ SRTT + 200 ms: a correct sender never
					// times out here, and it retransmits what the data path
					// dropped (plus a little for reordering and lost
					// retransmissions), not whole windows.
					d := res.Links[0].Drops
					drops := d.Head + d.Tail + d.AQM + d.Random + d.Outage + d.Policer
					t.Logf("forward drops %d, RTOs %d", drops, f.RTOs)
					if f.RTOs != 0 || f.Retransmits > 2*drops+10 {
						t.Errorf("RTOs %d, retransmits %d for %d forward drops: spurious recovery", f.RTOs, f.Retransmits, drops)
					}
					if f.MinRTTMs < ms(idle)-0.5 {
						t.Errorf("min RTT %.2f ms below the city's idle RTT %v", f.MinRTTMs, idle)
					}
				})
			}
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// The head-drop example through the simulator: a 3000-packet line-rate burst
// into an idle downlink loses about half (the 1500-packet queue), the lost
// ones are the oldest, and the end of the burst is delivered.
func TestHeadDropBurstExample(t *testing.T) {
	_, spec := loadSpec(t, "../examples/starlink/head-drop-burst.yaml")
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	if f.SentPackets != 3000 || f.LostPackets < 1400 || f.LostPackets > 1600 {
		t.Fatalf("sent %d lost %d; want 3000 and ≈1500", f.SentPackets, f.LostPackets)
	}
	// With head-drop, losses fall on the first part of the burst: the mean
	// sequence number of lost packets is below that of delivered ones, and
	// the end of the burst arrives.
	var lostSum, gotSum, lostN, gotN float64
	for _, p := range f.Packets {
		if p.OWDMs < 0 {
			lostSum += float64(p.Seq)
			lostN++
		} else {
			gotSum += float64(p.Seq)
			gotN++
		}
	}
	if lostSum/lostN >= gotSum/gotN {
		t.Errorf("mean seq lost %.0f >= delivered %.0f: not head-drop", lostSum/lostN, gotSum/gotN)
	}
	// The downlink AQM also drops early at random (a few per cent of
	// arrivals), so allow that many among the last 100.
	aqm := float64(res.Links[0].Drops.AQM) / float64(f.SentPackets)
	var tailLost int
	for _, p := range f.Packets[2900:] {
		if p.OWDMs < 0 {
			tailLost++
		}
	}
	if f.Packets[2999].OWDMs <= 0 || float64(tailLost) > 100*aqm*2+2 {
		t.Fatalf("burst's end: last packet owd %.1f, %d of the last 100 lost (AQM rate %.3f)", f.Packets[2999].OWDMs, tailLost, aqm)
	}
}

// epoch_utc places t = 0 on the wall clock: the spec carries the instant
// and the reconfigurations fall at :12/:27/:42/:57 of it; without it the
// instant is drawn from the seed, the same for the same seed.
func TestEpochUTC(t *testing.T) {
	const base = "version: 1\nduration: 30s\nseed: 3\npath: {profile: starlink, city: sydney}\nflows: [{cca: cubic}]\n"
	spec := func(yaml string) netsim.Spec {
		t.Helper()
		_, s, err := scenario.ParseSpec("e.yaml", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// 12:00:05.25 (+02:00) is 10:00:05.25 UTC: the first boundary (:12) is 6.75 s in.
	s := spec(base + "epoch_utc: 2026-04-01T12:00:05.25+02:00\n")
	if s.EpochUTC != "2026-04-01T10:00:05.25Z" {
		t.Errorf("epoch_utc %q, want 2026-04-01T10:00:05.25Z", s.EpochUTC)
	}
	if got, want := s.Schedule.Next(0), 6750*time.Millisecond; got != want {
		t.Errorf("first reconfiguration at %v, want %v", got, want)
	}
	a, b := spec(base), spec(base)
	if a.EpochUTC == "" || a.EpochUTC != b.EpochUTC || a.Schedule.Next(0) != b.Schedule.Next(0) {
		t.Errorf("drawn epochs differ for one seed: %q vs %q", a.EpochUTC, b.EpochUTC)
	}
	if _, err := scenario.Parse("e.yaml", []byte(base+"epoch_utc: 12:00:05\n")); err == nil ||
		!strings.Contains(err.Error(), "epoch_utc") || !strings.Contains(err.Error(), "RFC 3339") {
		t.Errorf("bad epoch_utc: error %v, want one naming epoch_utc and RFC 3339", err)
	}
}

// path.profile starlink-seed001 runs seed 001's dish: its access RTT (13 +
// 17 ms) plus the city's terrestrial leg, and its 60 Mbit/s uplink, where
// profile starlink has the Melbourne site's.
func TestStarlinkSeed001Scenario(t *testing.T) {
	run := func(prof string) (time.Duration, float64) {
		res := simtest.Run(t, fmt.Sprintf("version: 1\nname: s\nduration: 20s\npath: {profile: %s, city: ohio, direction: uplink}\nflows: [{cca: bbr}]\n", prof))
		return time.Duration(res.Path.BaseRTTMs * float64(time.Millisecond)), res.Flows[0].ThroughputMbps
	}
	seedRTT, seedMbps := run(profile.NameStarlinkSeed001)
	siteRTT, siteMbps := run(profile.NameStarlink)
	sp, err := profile.StarlinkNamed(profile.NameStarlinkSeed001, "ohio", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := 30*time.Millisecond + 2*sp.Terrestrial.OneWay
	if d := seedRTT - want; d < -2*time.Millisecond || d > 2*time.Millisecond {
		t.Errorf("seed 001 base RTT %v, want %v (13 + 17 ms + Ohio's leg both ways)", seedRTT, want)
	}
	if d := seedRTT - siteRTT; d < 9*time.Millisecond || d > 11*time.Millisecond {
		t.Errorf("base RTTs %v (seed 001) and %v (site): want seed 001's access 10 ms longer", seedRTT, siteRTT)
	}
	// BBR fills most of either uplink: seed 001's 60 Mbit/s, the site's ~20.
	t.Logf("bbr up from Ohio: %.1f Mbit/s (seed 001), %.1f (site)", seedMbps, siteMbps)
	if seedMbps < 1.5*siteMbps || siteMbps > 21 {
		t.Errorf("bbr %.1f Mbit/s on seed 001's uplink, %.1f on the site's: want seed 001's far above the site's ~20", seedMbps, siteMbps)
	}
}
