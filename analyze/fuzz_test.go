package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/leolab/leolab/result"
)

// traceCSV is the head of one of the dataset's CSV traces.
const traceCSV = `# source=x/bbr_Sydney__REV_run1.json; version=iperf 3.16; start.timestamp.time=Mon, 30 Mar 2026 06:56:31 GMT; start.test_start.reverse=1; start.test_start.duration=300; end.sender_tcp_congestion=bbr; end.streams[0].sender: bytes=8833073152 retransmits=32325 min_rtt=29623 mean_rtt=52131 max_rtt=168355
start,end,seconds,bytes,bits_per_second,retransmits,snd_cwnd,snd_wnd,rtt,rttvar,pmtu
0,1.000729,1.000728964805603,41418752,331108649.44772184,5,1484200,8712192,38000,1803,9001
1.000729,2.000886,1.0001569986343384,27918336,223311628.37931257,6,1411800,8687104,40634,1096,9001
`

// summaryCSV is the head of the dataset's end-summary CSV.
const summaryCSV = `scenario,city,cca,run,total_chars,seconds,sender_bytes,sender_bps,retransmits,max_snd_cwnd,min_rtt_us,mean_rtt_us,max_rtt_us,recv_bytes,recv_bps,sender_tcp_congestion,note
downlink-sequential-logs,London,bbr,1,185680,300.265288,5305925632,141366340.87387419,38375,23094152,256533,274033,353610,0,0,bbr,junk
downlink-competitive-logs,London,cubic,1,185797,300.262634,6406930432,170702037.65680683,77271,24170016,260122,282113,376669,0,0,cubic,
`

// analyzeBytes reads one input as Load would and runs the analysis and
// its text table on it: nothing may panic whatever the bytes say.
func analyzeBytes(t *testing.T, name string, data []byte) {
	t.Helper()
	in := &Input{}
	if err := in.readData(name, data); err != nil {
		return
	}
	assignGroups(in.Flows)
	a := Analyze(in.Flows)
	var out bytes.Buffer
	if err := a.WriteText(&out); err != nil {
		t.Fatal(err)
	}
}

// FuzzResultReader: leolab result documents, as analyze reads them.
func FuzzResultReader(f *testing.F) {
	res := result.Result{Engine: "sim", Scenario: "s", Seed: 1, DurationS: 2, EpochUTC: "2026-04-01T12:00:05Z",
		Flows: []result.Flow{{ID: 0, CCA: "cubic", BytesAcked: 1e6, ThroughputMbps: 4, MinRTTMs: 50, MeanRTTMs: 60,
			Intervals: []result.Interval{{T: 1, Bytes: 5e5, SRTTMs: 55, CWndBytes: 1e5}, {T: 2, Bytes: 5e5, SRTTMs: 65, CWndBytes: 1e5}}},
			{ID: 1, CCA: "bbr", BytesAcked: 1e6, Intervals: []result.Interval{{T: 1e300, Bytes: -5, SRTTMs: 1e300}}}}}
	good, _ := json.Marshal(res)
	f.Add(good)
	f.Add([]byte(strings.Replace(string(good), `"t":1,`, `"t":-1e308,`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"duration_s":2`, `"duration_s":1e308`, 1)))
	f.Add([]byte(`{"engine":"sim","flows":[{"intervals":[{"t":0},{"t":0}]}]}`))
	f.Add([]byte(`{"engine":"emu","flows":[{}],"epoch_utc":"never"}`))
	f.Add([]byte(`{"engine":"sim","flows":[`))
	f.Fuzz(func(t *testing.T, data []byte) { analyzeBytes(t, "r.json", data) })
}

// FuzzCSVReader: the dataset's CSV traces and end summaries.
func FuzzCSVReader(f *testing.F) {
	f.Add([]byte(traceCSV))
	f.Add([]byte(summaryCSV))
	f.Add([]byte(strings.Replace(traceCSV, "0,1.000729,", "1e300,-1e300,", 1)))
	f.Add([]byte(strings.Replace(traceCSV, "38000,1803", "NaN,Inf", 1)))
	f.Add([]byte(strings.Replace(summaryCSV, "300.265288", "NaN", 1)))
	f.Add([]byte(strings.Replace(summaryCSV, "256533", "1e300", 1)))
	f.Add([]byte("# source=\nstart,end\n"))
	f.Add([]byte("scenario\n\"unterminated\n"))
	f.Fuzz(func(t *testing.T, data []byte) { analyzeBytes(t, "d.csv", data) })
}

// FuzzIRTTInput: irtt captures (plain and gzipped), as analyze reads them.
func FuzzIRTTInput(f *testing.F) {
	for _, name := range []string{"../irtt/testdata/loopback.json", "../irtt/testdata/loopback.json.gz"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { analyzeBytes(t, "in.json", data) })
}
