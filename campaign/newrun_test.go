package campaign

import (
	"strings"
	"testing"
)

func TestNewRunIDIsTheCampaignID(t *testing.T) {
	c, _, err := Seed000(Seed000Options{CCAs: []string{"cubic"}, Cities: []string{"sydney"}, Directions: []string{"downlink"}, Kinds: []string{Dedicated}})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	got, err := NewRun(r.Engine, r.Kind, r.City, r.Direction, r.CCAs, r.Seed, r.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != r.ID || got.Name() != r.Name() {
		t.Fatalf("NewRun id %s name %s, campaign id %s name %s", got.ID, got.Name(), r.ID, r.Name())
	}
	if _, err := NewRun(r.Engine, r.Kind, r.City, r.Direction, r.CCAs, r.Seed, strings.Replace(r.Scenario, "duration", "durashun", 1)); err == nil {
		t.Fatal("a bad scenario gave no error")
	}
}
