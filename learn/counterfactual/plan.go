package counterfactual

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/scenario"
)

// HeldOut is the city kept out of every fit and of training (the
// evaluation city of seed 003's Fig. 9; leolab's calibration holds it out).
const HeldOut = "tokyo"

// TrainingCities are the calibrated profile's cities other than HeldOut.
func TrainingCities() []string {
	return slices.DeleteFunc(profile.Cities(), func(c string) bool { return c == HeldOut })
}

// Bounds of a Starlink run to label.
const (
	MinDuration = 5 * time.Second
	MaxDuration = time.Hour
	MaxSeed     = 1 << 32
)

// Starlink is one bulk BBR flow over the calibrated Starlink profile of
// city (scenario path {profile: starlink, city, direction}, as the
// embedded model's training runs and leolab learn eval use), sampled every
// second, with its pool source named as those runs name theirs. The link's
// per-packet draws are keyed (tdma.keyed_draws: common random numbers), so
// the replays of one decision meet the same loss opportunities frame by
// frame and differ by their gain, not by a reshuffled draw.
func Starlink(city, direction string, seed int, duration time.Duration) (Source, error) {
	if !slices.Contains(profile.Cities(), city) {
		return Source{}, fmt.Errorf("--cities: %q (allowed: %s)", city, strings.Join(profile.Cities(), ", "))
	}
	if direction != "downlink" && direction != "uplink" {
		return Source{}, fmt.Errorf("--direction %q (allowed: downlink, uplink)", direction)
	}
	if seed < 1 || seed > MaxSeed {
		return Source{}, fmt.Errorf("seed %d is out of range (allowed: 1..%d)", seed, MaxSeed)
	}
	if duration < MinDuration || duration > MaxDuration {
		return Source{}, fmt.Errorf("--duration %v is out of range (allowed: %v..%v)", duration, MinDuration, MaxDuration)
	}
	name := fmt.Sprintf("cf-%s-%s-s%d", city, direction, seed)
	text := fmt.Sprintf("version: 1\nname: %s\nduration: %s\nseed: %d\ninterval: 1s\n"+
		"path: {profile: starlink, city: %s, direction: %s, overrides: {tdma.keyed_draws: true}}\nflows: [{cca: bbr}]\n", name, duration, seed, city, direction)
	sc, err := scenario.Parse(name+".yaml", []byte(text))
	if err != nil {
		return Source{}, fmt.Errorf("counterfactual: %w", err)
	}
	return Source{
		Build: func() (netsim.Spec, error) { return sc.Spec() },
		Pool:  learn.Source{Location: city, Stream: direction + "-sim", Flow: fmt.Sprintf("%s bbr seed%d", city, seed)},
	}, nil
}
