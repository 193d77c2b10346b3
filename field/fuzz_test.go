package field

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// decodeLine is the control channel's decoding of one message from
// outside bytes, as ctl.recv does it.
func decodeLine(data []byte, limit int, v any) error {
	line, err := readLine(bufio.NewReaderSize(bytes.NewReader(data), controlBuf), limit)
	if err != nil {
		return err
	}
	return json.Unmarshal(line, v)
}

// The server's side: whatever a client sends as its request, decoding,
// authentication and validation neither panic nor admit a request whose
// volume or packet gap is out of the protocol's bounds. The seeds hold
// the defects of issue 18 (a rate whose packet gap overflowed, sizes
// never checked, NaN-like values, an endless line).
func FuzzServerRequest(f *testing.F) {
	ok := `{"version":2,"direction":"down","rate_bps":8e6,"size":1000,"duration_ns":60000000000,"drain_ns":1000000000}` + "\n"
	for _, s := range []string{
		ok,
		strings.Replace(ok, "8e6", "1e-9", 1),
		strings.Replace(ok, "8e6", "1e-300", 1),
		strings.Replace(ok, "8e6", "1e300", 1),
		strings.Replace(ok, `"size":1000`, `"size":-5`, 1),
		strings.Replace(ok, `"size":1000`, `"size":9000000000`, 1),
		strings.Replace(ok, `"duration_ns":60000000000`, `"duration_ns":-1`, 1),
		strings.Replace(ok, "down", "up", 1),
		`{"version":2,"auth":{"nonce":"00","time_unix_ns":1,"mac":"zz"}}` + "\n",
		`{"version":1}` + "\n",
		strings.Repeat("[", 5000) + "\n",
		"\n", "", "null\n", `"x"` + "\n",
	} {
		f.Add([]byte(s))
	}
	g := newReplayGuard()
	f.Fuzz(func(t *testing.T, data []byte) {
		var req request
		if err := decodeLine(data, DefaultMaxLine, &req); err != nil {
			return
		}
		_ = g.verify("secret", &req, time.Unix(0, 0))
		if req.validate() != nil {
			return
		}
		gap, n := req.gap(), req.packets()
		if gap <= 0 || gap > 12*time.Second || n < 1 || req.bytes() > int64(maxRateBps/8*maxDuration.Seconds())+2*maxSize {
			t.Fatalf("admitted %+v: gap %v, %d packets, %d bytes", req, gap, n, req.bytes())
		}
		if err := req.flow().Validate(); err != nil {
			t.Fatalf("admitted %+v, which endpoint refuses: %v", req, err)
		}
	})
}

// The client's side: whatever a server answers, the client's decoding of
// its accept, sent and records messages neither panics nor allocates by
// a count read from them (a fake server's "sent": 1e15 crashed it with
// makeslice).
func FuzzClientReply(f *testing.F) {
	for _, s := range []string{
		`{"udp_port":5000,"session":"0011223344556677"}`,
		`{"udp_port":70000,"session":"zz"}`,
		`{"sent":1000000000000000,"epoch_unix_ns":1}`,
		`{"sent":-1}`,
		`{"sent":100,"epoch_unix_ns":1700000000000000000,"send_late_p99_ns":5}`,
		`{"flow":{},"packets":[[0,1,2],[99999999999,-5,9223372036854775807],[-1,0,0]]}`,
		`{"error":"server shutting down"}`,
	} {
		f.Add([]byte(s + "\n"))
	}
	req := request{Version: version, Direction: Up, RateBps: 8e6, Size: 1000, DurationNs: int64(100 * time.Millisecond)}
	f.Fuzz(func(t *testing.T, data []byte) {
		var acc accept
		if decodeLine(data, replyLine, &acc) == nil {
			_, _ = parseToken(acc.Session)
		}
		var sm sentMsg
		if decodeLine(data, replyLine, &sm) == nil && checkSent(&sm, &req) == nil {
			if sm.Sent > req.packets() {
				t.Fatalf("accepted a count of %d for a probe of %d", sm.Sent, req.packets())
			}
			var rec records
			if decodeLine(data, int(req.packets()*recordBytes+recordsSlack), &rec) == nil {
				res, err := uplinkResult(&rec, sm, &req, time.Unix(0, 1))
				if err == nil && int64(len(res.Flows[0].Packets)) > req.packets() {
					t.Fatalf("%d records for a probe of %d", len(res.Flows[0].Packets), req.packets())
				}
			}
		}
	})
}
