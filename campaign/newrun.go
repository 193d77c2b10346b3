package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/leolab/leolab/scenario"
)

// NewRun makes a run of a scenario written outside a campaign file (e.g.
// reproduce's two-flow runs of seed 000 Fig. 15, whose second flow starts
// late), with the id a campaign would give it: the same engine and text
// give the same id, so the store resumes it like any campaign run. ccas are
// the axis values the run stands for, in flow order.
func NewRun(engine, kind, city, direction string, ccas []string, seed uint64, text string) (Run, error) {
	r := Run{Engine: engine, Kind: kind, CCAs: ccas, City: city, Direction: direction, Seed: seed, Scenario: text}
	if _, err := scenario.Parse(r.Name(), []byte(text)); err != nil {
		return Run{}, fmt.Errorf("campaign: run %s: %w", r.Name(), err)
	}
	r.ID = runID(engine, text)
	return r, nil
}

// runID is a run's id: the first idHexDigits of SHA-256 over its engine and
// scenario text.
func runID(engine, text string) string {
	sum := sha256.Sum256([]byte(engine + "\x00" + text))
	return hex.EncodeToString(sum[:])[:idHexDigits]
}
