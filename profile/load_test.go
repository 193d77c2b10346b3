package profile

import (
	"strings"
	"testing"
)

func TestFlatten(t *testing.T) {
	es, err := flatten([]byte("a:\n  b: 1\n  c: [1ms, 2ms]\nd: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].path != "a.b" || es[1].path != "a.c" || es[2].path != "d" || es[2].line != 4 {
		t.Errorf("flatten = %+v", es)
	}
	if _, err := flatten([]byte("- 1\n- 2\n")); err == nil {
		t.Error("flatten accepted a list document")
	}
}

func TestFileErrorsNameLine(t *testing.T) {
	_, err := LoadStarlink([]byte("downlink:\n  queue:\n    limit_packets: -3\n"), "", nil)
	if err == nil || !strings.Contains(err.Error(), ":3:") || !strings.Contains(err.Error(), "downlink.queue.limit_packets") {
		t.Errorf("error %v lacks line 3 and the path", err)
	}
	_, err = LoadStarlink([]byte("uplink:\n  bogus: 1\n"), "", nil)
	if err == nil || !strings.Contains(err.Error(), "uplink.bogus") {
		t.Errorf("unknown path error = %v", err)
	}
}

func TestOverrideEntriesSorted(t *testing.T) {
	es := overrideEntries(map[string]any{"b": 1, "a": map[string]any{"y": 2, "x": 3}})
	var paths []string
	for _, e := range es {
		paths = append(paths, e.path)
	}
	if got := strings.Join(paths, ","); got != "a.x,a.y,b" {
		t.Errorf("order %s", got)
	}
}
