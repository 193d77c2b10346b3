package repro001

import (
	"encoding/json"
	"testing"
)

// Same seed, same bytes: two runs of the light probe and of the bursts
// give identical inferences (every procedure is a seeded scenario).
func TestDeterministic(t *testing.T) {
	once := func() []byte {
		rc, err := runReconfig(simLab{}, Default, "uplink", 3)
		if err != nil {
			t.Fatal(err)
		}
		q, err := runQueue(simLab{}, Default, rc.anchor(), 3)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(struct {
			R any
			Q *Queue
		}{rc.Report, q})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := once(), once()
	if string(a) != string(b) {
		t.Errorf("two runs differ:\n%.300s\n%.300s", a, b)
	}
}
