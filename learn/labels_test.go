package learn

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// A counterfactual row survives the JSONL round trip with its label
// source and rewards; a surrogate row writes neither field.
func TestLabelSourceRoundTrip(t *testing.T) {
	p := NewPool()
	p.Rows = []Row{
		{Source: Source{Location: "sydney", Stream: "downlink-sim", Flow: "f"}, Index: 0, Phase: Up, Action: 1.05, Mapped: 1.05},
		{Source: Source{Location: "sydney", Stream: "downlink-sim", Flow: "f"}, Index: 1, Phase: Down, Action: 0.94, Reward: 0.7, Mapped: 0.9,
			LabelSource: LabelCounterfactual, GainRewards: []float64{0.1, 0.2, 0.7, 0.3, -0.5}},
	}
	var buf bytes.Buffer
	if err := p.WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if strings.Contains(lines[0], "label_source") || !strings.Contains(lines[1], `"label_source":"counterfactual"`) {
		t.Errorf("written:\n%s", buf.String())
	}
	rows, err := ReadJSONL(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].LabelSource != LabelSurrogate || rows[1].LabelSource != LabelCounterfactual ||
		!reflect.DeepEqual(rows[1].GainRewards, p.Rows[1].GainRewards) {
		t.Errorf("read back %+v", rows)
	}
	ex := CounterfactualExamples(rows)
	if len(ex) != 1 || ex[0].Label != 0.94 || ex[0].Phase != Down {
		t.Errorf("counterfactual examples %+v, want the DOWN row labelled 0.94", ex)
	}
}

func TestReadLabelSourceBad(t *testing.T) {
	const head = `{"location":"a","stream":"s","flow":"f","i":0,"t_s":1,"throughput_bps":1,"retransmits":0,"cwnd_bytes":0,"rwnd_bytes":0,"rtt_ms":1,"rttvar_ms":0,`
	for _, tc := range []struct{ tail, want string }{
		{`"phase":"UP","action":1.05,"label_source":"oracle"}`, `label_source "oracle" (allowed: surrogate, counterfactual)`},
		{`"phase":"UP","action":1.05,"label_source":"counterfactual","gain_rewards":[1,2]}`, "gain_rewards has 2 values, want 5"},
		{`"phase":"UP","action":0.9,"label_source":"counterfactual","gain_rewards":[1,2,3,4,5]}`, "action 0.9 is not a UP gain"},
		{`"phase":"UP","action":1.05,"gain_rewards":[1,2,3,4,5]}`, "gain_rewards on a surrogate row"},
	} {
		_, err := ReadJSONL(strings.NewReader(head + tc.tail + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%s: error %v, want %q at line 1", tc.tail, err, tc.want)
		}
	}
	if _, err := ParseLabelSource(""); err == nil {
		t.Error("an empty --labels parsed")
	}
}
