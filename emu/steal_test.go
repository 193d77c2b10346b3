package emu

import (
	"testing"
	"time"
)

func TestParseSteal(t *testing.T) {
	stat := "cpu  1245597 69 753123 7089272 4810 0 17313 3264 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n"
	got, err := parseSteal(stat)
	if err != nil {
		t.Fatal(err)
	}
	if want := 32640 * time.Millisecond; got != want {
		t.Errorf("steal %v, want %v (3264 ticks of 10 ms)", got, want)
	}
	for _, bad := range []string{"cpu0 1 2 3\n", "cpu 1 2 3 4\n", "cpu 1 2 3 4 5 6 7 x\n"} {
		if _, err := parseSteal(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := hostSteal(); err != nil {
		t.Errorf("this machine's /proc/stat: %v", err)
	}
}
