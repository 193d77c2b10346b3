package learnedtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/learn/actor"
)

// Model is a learned controller's model-file parameter: the registry
// name, the cc.Config.Files key, the actor's input size and the embedded
// actor file.
type Model struct {
	CCA      string
	Param    string
	Dim      int
	Embedded []byte
}

// ModelFiles fails t unless cc.New of m.CCA refuses a missing model file
// naming its path, loads the embedded file from disk under its own
// format name and under the older "leolab-orca-actor", and refuses a
// version-2 file and an actor of another input size, naming what is
// wrong.
func ModelFiles(t *testing.T, m Model) {
	t.Helper()
	load := func(path string) error {
		_, err := cc.New(m.CCA, cc.Config{Files: map[string]string{m.Param: path}})
		return err
	}
	if err := load("/nonexistent/actor.json"); err == nil || !strings.Contains(err.Error(), "/nonexistent/actor.json") {
		t.Errorf("%s: missing model file: %v", m.CCA, err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := write("embedded.json", m.Embedded); load(p) != nil {
		t.Errorf("%s: the embedded actor from a file: %v", m.CCA, load(p))
	}
	// the same weights under both names: the file as embedded names one
	for _, name := range []string{actor.Format, actor.LegacyFormat} {
		b := string(m.Embedded)
		for _, old := range []string{actor.Format, actor.LegacyFormat} {
			b = strings.Replace(b, `"format":"`+old+`"`, `"format":"`+name+`"`, 1)
		}
		if !strings.Contains(b, `"format":"`+name+`"`) {
			t.Fatalf("%s: the embedded file names neither format", m.CCA)
		}
		if p := write(name+".json", []byte(b)); load(p) != nil {
			t.Errorf("%s: the embedded actor under %q: %v", m.CCA, name, load(p))
		}
	}
	if err := load(write("v2.json", []byte(`{"format":"leolab-actor","version":2}`))); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("%s: version-2 model file: %v", m.CCA, err)
	}
	other := m.Dim + 1
	wrong := `{"format":"leolab-actor","version":1,"layers":[{"in":` + strconv.Itoa(other) + `,"out":1,"w":[` +
		strings.Repeat("0,", other-1) + `0],"b":[0]}]}`
	if err := load(write("dim.json", []byte(wrong))); err == nil || !strings.Contains(err.Error(), "layers[0]") {
		t.Errorf("%s: %d-input model file: %v", m.CCA, other, err)
	}
}

// BenchOnAck benchmarks the registered cca's per-ACK path in steady
// state (cctest.BenchAcks), one agent step per 20 ms included, reporting
// the steps per ACK from its agent_steps counter.
func BenchOnAck(b *testing.B, cca string) {
	c, err := cc.New(cca, cc.Config{})
	if err != nil {
		b.Fatal(err)
	}
	cctest.BenchAcks(b, c, "steps/op", "agent_steps")
}

// OnAckAllocs fails t unless the registered cca's per-ACK path allocates
// nothing.
func OnAckAllocs(t *testing.T, cca string) {
	t.Helper()
	c, err := cc.New(cca, cc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(2000, cctest.SteadyAcks(c)); n != 0 {
		t.Fatalf("%s: %v allocations per ACK", cca, n)
	}
}

// BenchActor benchmarks one inference of a, on a fixed state.
func BenchActor(b *testing.B, a *actor.Actor) {
	s := make([]float32, a.Dim())
	for i := range s {
		s[i] = float32(i%5) / 5
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Act(s)
	}
}
