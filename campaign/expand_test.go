package campaign

import (
	"strings"
	"testing"

	"github.com/leolab/leolab/scenario"
)

func mustExpand(t *testing.T, body string) []Run {
	t.Helper()
	c, err := Parse("c.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// The product of the axes: dedicated = one run per CCA, concurrent = one
// run with every CCA, for every city, direction and seed.
func TestExpandCounts(t *testing.T) {
	runs := mustExpand(t, okCampaign)
	const ccas, cities, dirs, seeds = 2, 2, 2, 2
	if want := seeds * dirs * cities * (ccas + 1); len(runs) != want {
		t.Fatalf("%d runs, want %d", len(runs), want)
	}
	ids := map[string]bool{}
	for _, r := range runs {
		if len(r.ID) != idHexDigits || ids[r.ID] {
			t.Fatalf("run id %q empty, malformed or repeated", r.ID)
		}
		ids[r.ID] = true
		sc, err := scenario.Parse(r.Name(), []byte(r.Scenario))
		if err != nil {
			t.Fatalf("run %s: scenario does not parse: %v\n%s", r.Name(), err, r.Scenario)
		}
		wantFlows := 1
		if r.Kind == Concurrent {
			wantFlows = ccas
		}
		if len(sc.Flows) != wantFlows || sc.Seed != r.Seed || sc.Path.City != r.City || sc.Path.Direction != r.Direction {
			t.Errorf("run %s: scenario %+v does not match the run", r.Name(), sc)
		}
		if sc.Path.Overrides["downlink.queue.limit_packets"] != 1000 {
			t.Errorf("run %s: template override lost: %v", r.Name(), sc.Path.Overrides)
		}
	}
	// Seed-major order: the first half holds seed 7 only.
	for _, r := range runs[:len(runs)/2] {
		if r.Seed != 7 {
			t.Fatalf("run %s of the first half has seed %d", r.Name(), r.Seed)
		}
	}
}

// Ids depend on what is run, not on the campaign's name or the order of
// its axes, and change with any parameter.
func TestExpandStableIDs(t *testing.T) {
	base := idsByName(mustExpand(t, okCampaign))
	renamed := idsByName(mustExpand(t, strings.Replace(okCampaign, "name: sweep", "name: other", 1)))
	reordered := idsByName(mustExpand(t, strings.Replace(okCampaign, "[sydney, london]", "[london, sydney]", 1)))
	for name, id := range base {
		if renamed[name] != id || reordered[name] != id {
			t.Fatalf("run %s: id %s changed with the campaign name or axis order (%s, %s)", name, id, renamed[name], reordered[name])
		}
	}
	for _, change := range [][2]string{{"20s", "21s"}, {"1000}", "999}"}} {
		other := idsByName(mustExpand(t, strings.Replace(okCampaign, change[0], change[1], 1)))
		for name, id := range base {
			if other[name] == id {
				t.Fatalf("run %s: id unchanged after %q → %q", name, change[0], change[1])
			}
		}
	}
}

func idsByName(runs []Run) map[string]string {
	m := map[string]string{}
	for _, r := range runs {
		m[r.Name()] = r.ID
	}
	return m
}

func TestRegistryNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{{"cubic", "cubic"}, {"ccp", "fixed"}, {"copa", "copa"}, {"bbr3", "bbr3"}, {"nosuch", "nosuch"}} {
		if got := RegistryName(c.in); got != c.want {
			t.Errorf("RegistryName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{{"fixed", "ccp"}, {"copa", "copa"}, {"bbr3", "bbr"}, {"ccp", "ccp"}, {"reno", "reno"}} {
		if got := datasetName(c.in); got != c.want {
			t.Errorf("datasetName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if len(DatasetNames()) != 9 {
		t.Errorf("dataset has %d CCAs, want 9", len(DatasetNames()))
	}
}

// BenchmarkExpandSeed000Full expands the paper's campaign (1,200 runs,
// each scenario rendered, parsed and hashed).
func BenchmarkExpandSeed000Full(b *testing.B) {
	c, _, err := Seed000(Seed000Options{Full: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Expand(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExpandRefusesRunsOverBudget: a run whose records cannot fit in memory
// (1 ms intervals for 2 h: ~50 GiB) is refused before any run starts,
// naming the template and the run.
func TestExpandRefusesRunsOverBudget(t *testing.T) {
	body := strings.Replace(okCampaign, "duration: 20s", "duration: 2h\ninterval: 1ms", 1)
	c, err := Parse("c.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Expand()
	if err == nil || !strings.Contains(err.Error(), "template") || !strings.Contains(err.Error(), "of memory") {
		t.Fatalf("Expand = %v, want the budget's refusal", err)
	}
}
