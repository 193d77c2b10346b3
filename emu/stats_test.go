package emu

import (
	"testing"
	"time"
)

func TestInstrumentKeys(t *testing.T) {
	s := &Stats{ReleaseP50: 7 * time.Microsecond, ReleaseP99: 150 * time.Microsecond, TUNDrops: [2]int64{3, 4}, Realtime: true}
	m := s.Instrument()
	for k, want := range map[string]float64{
		"release_err_p50_us": 7, "release_err_p99_us": 150, "tun_drops_client": 3, "tun_drops_server": 4, "pump_realtime": 1,
	} {
		if m[k] != want {
			t.Errorf("%s = %g, want %g", k, m[k], want)
		}
	}
}
