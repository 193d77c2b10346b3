package counterfactual

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Tokyo is held out: never a training city.
func TestTrainingCitiesHoldOutTokyo(t *testing.T) {
	c := TrainingCities()
	if slices.Contains(c, HeldOut) || len(c) != 5 {
		t.Errorf("training cities %v: want the five calibration cities without %s", c, HeldOut)
	}
}

func TestStarlinkBadInput(t *testing.T) {
	for _, tc := range []struct {
		city, dir string
		seed      int
		d         time.Duration
		want      string
	}{
		{"paris", "downlink", 1, time.Minute, `--cities: "paris"`},
		{"tokyo", "up", 1, time.Minute, `--direction "up"`},
		{"tokyo", "uplink", 0, time.Minute, "seed 0 is out of range"},
		{"tokyo", "uplink", 1, 2 * time.Hour, "--duration 2h0m0s is out of range"},
	} {
		if _, err := Starlink(tc.city, tc.dir, tc.seed, tc.d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc, err, tc.want)
		}
	}
	s, err := Starlink("tokyo", "uplink", 7, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := s.Build()
	if err != nil || spec.Seed != 7 || spec.Duration != time.Minute || spec.City != "tokyo" || spec.Direction != "uplink" {
		t.Errorf("spec %v: seed %d, %v, %s %s", err, spec.Seed, spec.Duration, spec.City, spec.Direction)
	}
}
