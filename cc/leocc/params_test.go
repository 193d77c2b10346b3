package leocc

import (
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// TestParams: the trigger source follows the path and the knobs; bad
// values are errors naming what is allowed.
func TestParams(t *testing.T) {
	sched := periodic{period: 15 * time.Second, offset: 3 * time.Second}
	for _, c := range []struct {
		name   string
		params map[string]float64
		sched  cc.Schedule
		want   int    // resulting trigger mode
		err    string // substring of the error, "" for none
	}{
		{"auto with schedule", nil, sched, TriggerSchedule, ""},
		{"auto without", nil, nil, TriggerDetect, ""},
		{"forced detection", map[string]float64{"trigger": 2}, sched, TriggerDetect, ""},
		{"fixed offset", map[string]float64{"offset_s": 12}, nil, TriggerSchedule, ""},
		{"schedule missing", map[string]float64{"trigger": 1}, nil, 0, "no reconfiguration schedule"},
		{"bad trigger", map[string]float64{"trigger": 1.5}, nil, 0, "allowed 0 (auto)"},
		{"bad window", map[string]float64{"window_ms": 0}, nil, 0, "must be > 0"},
		{"bad period", map[string]float64{"period_s": -1}, nil, 0, "period_s must be > 0"},
	} {
		p, err := parseParams(testConfig(c.params, c.sched))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.err == "" && p.trigger != c.want:
			t.Errorf("%s: trigger %d, want %d", c.name, p.trigger, c.want)
		}
	}
}

// TestRegistered: "leocc" is in the registry with its knobs at their
// defaults, and cc.New rejects unknown ones.
func TestRegistered(t *testing.T) {
	info := cctest.Registered(t, "leocc", defaultParams(), map[string]float64{"nope": 1})
	if len(info.Params) != len(defaultParams()) {
		t.Errorf("leocc registers %d params, want the %d of defaultParams", len(info.Params), len(defaultParams()))
	}
	if c, err := cc.New("leocc", cc.Config{}); err != nil || c.PacingRate() <= 0 {
		t.Errorf("cc.New: %v, pacing %v: want a paced controller", err, c.PacingRate())
	}
}
