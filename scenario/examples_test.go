package scenario_test

import (
	"path/filepath"
	"testing"

	"github.com/leolab/leolab/netsim"
)

// Every example scenario loads, runs and delivers data on every flow, so the
// README's commands keep working.
func TestExamplesRun(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	more, _ := filepath.Glob("../examples/*/*.yaml")
	for _, f := range more {
		if filepath.Base(filepath.Dir(f)) != "campaigns" { // campaign files, not scenarios
			files = append(files, f)
		}
	}
	if len(files) < 5 {
		t.Fatalf("found %d examples", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			_, spec := loadSpec(t, file)
			res, err := netsim.Run(spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Flows {
				if f.BytesAcked <= 0 {
					t.Errorf("flow %d (%s) delivered nothing", f.ID, f.CCA)
				}
			}
		})
	}
}
