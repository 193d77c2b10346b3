package sage

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

func TestDebugPolicy(t *testing.T) {
	path := os.Getenv("SAGE_POLICY")
	if path == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(path)
	var pf PolicyFileAlias
	json.Unmarshal(b, &pf)
	d := PoolDist()
	for i := range 3 {
		tr, err := run(d, "sage", 9001, i, newSage(&pf))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(tr.Episode, tr.flow.ThroughputMbps/tr.Episode.RateMbps, tr.flow.MeanRTTMs-tr.flow.MinRTTMs)
		for k := 0; k < len(tr.A); k += 10 {
			s := tr.State(k)[len(tr.State(k))-8:]
			fmt.Printf("%d a=%.3f r=%.2f thr=%.2f loss=%.3f rtt=%.2f cwnd=%.2f act=%.2f\n", k, tr.A[k], tr.R[k], s[0], s[1], s[2], s[4], s[6])
			if k > 300 {
				break
			}
		}
	}
}
