package profile

import (
	"strings"
	"testing"
)

func TestRenderNests(t *testing.T) {
	sp, err := Starlink("sydney", nil)
	if err != nil {
		t.Fatal(err)
	}
	out := sp.YAML()
	for _, want := range []string{
		"# profile starlink, city sydney (observed idle RTT 26ms)\n",
		"downlink:\n  base_owd: 9ms\n",
		"  queue:\n    limit_packets: 1500\n",
		"terrestrial:\n  one_way: 3ms\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("YAML lacks %q:\n%s", want, out)
		}
	}
}
