package irtt

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/irtttest"
	"github.com/leolab/leolab/probe"
)

func readFile(t *testing.T, file string) *Capture {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !IsCapture(data) {
		t.Fatalf("%s: not recognised as an irtt capture", file)
	}
	c, err := Read(file, data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A real capture over loopback: the packets come back (a loaded host may
// lose a few, bounded at 5 %, and irtt's own counts must agree), the
// one-way delays add up to irtt's RTT, and the prober reads both
// directions at the client's 10 ms spacing.
func TestReadRealCapture(t *testing.T) {
	const interval, duration = 10 * time.Millisecond, 2 * time.Second
	for _, name := range []string{"c.json", "c.json.gz"} {
		t.Run(name, func(t *testing.T) {
			file := irtttest.Capture(t, name, interval, duration)
			c := readFile(t, file)
			// irtt sends every interval within the duration, less its
			// timer's misses on a loaded host (it counts them itself).
			n, lost := len(c.Packets), 0
			for _, p := range c.Packets {
				if p.Loss != Delivered {
					lost++
				}
			}
			if int64(n) != c.PacketsSent || int64(n-lost) != c.PacketsReceived || float64(n) < 0.8*float64(duration/interval) || float64(lost) > 0.05*float64(n) {
				t.Errorf("%d packets (%d lost), irtt sent %d, received %d; want about %d", n, lost, c.PacketsSent, c.PacketsReceived, duration/interval)
			}
			if lost > 0 {
				t.Logf("%d of %d lost over loopback (host load)", lost, n)
			}
			if c.Interval != interval || c.IPv6 || c.Size() != c.Length+28 || time.Since(c.Epoch) > time.Minute {
				t.Errorf("capture %+v", c)
			}
			for _, p := range c.Packets {
				if p.Loss != Delivered {
					continue
				}
				// irtt's one-way delays are differences of the wall-clock
				// stamps (server receive − client send, client receive −
				// server send); its RTT comes from the monotonic clocks.
				if !p.HasUp || !p.HasDown || !p.HasRTT || p.RTT <= 0 {
					t.Fatalf("packet %d: %+v", p.Seq, p)
				}
				if p.Up != p.ServerRecv-p.ClientSend || p.Down != p.ClientRecv-p.ServerSend {
					t.Errorf("packet %d: up %v, down %v; stamps %+v", p.Seq, p.Up, p.Down, p)
				}
			}
			for _, dir := range []string{Downlink, Uplink} {
				tr, err := c.Trace(dir)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := probe.Infer(tr, probe.Options{})
				if err != nil {
					t.Fatal(err)
				}
				// The sends cover the duration but one interval; loopback
				// delays are µs (a host that stalls the client may add an
				// outage, which is not asserted).
				if rep.Packets < n-lost || rep.Packets > n || rep.Lost > lost || rep.MedianOWD > time.Millisecond || rep.Spacing != interval ||
					(rep.Span-(duration-interval)).Abs() > 3*interval {
					t.Errorf("%s: %d packets, %d lost, median OWD %v, spacing %v, span %v", dir, rep.Packets, rep.Lost, rep.MedianOWD, rep.Spacing, rep.Span)
				}
			}
		})
	}
}

// editCapture changes a real capture's round trips and re-encodes it.
func editCapture(t *testing.T, file string, edit func(rts []map[string]any, top map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	raw := top["round_trips"].([]any)
	rts := make([]map[string]any, len(raw))
	for i := range raw {
		rts[i] = raw[i].(map[string]any)
	}
	edit(rts, top)
	out, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// loseAs marks a round trip lost the way irtt 0.9 writes it: the server's
// stamps and the delays gone (they come back in the reply).
func loseAs(rt map[string]any, how string) {
	rt["lost"] = how
	rt["delay"] = map[string]any{}
	ts := rt["timestamps"].(map[string]any)
	ts["server"] = map[string]any{"receive": map[string]any{"wall": 0, "monotonic": 0}, "send": map[string]any{"wall": 0, "monotonic": 0}}
	ts["client"].(map[string]any)["receive"] = map[string]any{"wall": 0, "monotonic": 0}
}

// Losses by direction: true_up counts against the uplink only, true_down
// against the downlink only, true (unknown) against both; a lost reply is
// placed one client interval after the previous reply.
func TestLossDirections(t *testing.T) {
	file := irtttest.Capture(t, "c.json", 10*time.Millisecond, time.Second)
	data := editCapture(t, file, func(rts []map[string]any, _ map[string]any) {
		loseAs(rts[10], "true_up")
		loseAs(rts[20], "true_down")
		loseAs(rts[21], "true_down")
		loseAs(rts[30], "true")
	})
	c, err := Read("edited.json", data)
	if err != nil {
		t.Fatal(err)
	}
	n := len(c.Packets)
	for _, tc := range []struct {
		dir           string
		packets, lost int
		lostSeq       []int
	}{
		{Uplink, n - 2, 2, []int{10, 30}},       // 20, 21 reached the server at unknown times
		{Downlink, n - 1, 3, []int{20, 21, 30}}, // 10 had no reply
	} {
		tr, err := c.Trace(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		lost := 0
		for _, s := range tr.Samples {
			if s.Lost {
				lost++
			}
		}
		if len(tr.Samples) != tc.packets || lost != tc.lost {
			t.Errorf("%s: %d samples, %d lost; want %d, %d", tc.dir, len(tr.Samples), lost, tc.packets, tc.lost)
		}
	}
	down, _ := c.Trace(Downlink)
	// Reply 20's estimated send: reply 19's + the client's spacing 19 → 20.
	var s19, s20 time.Duration
	k := 0
	for i, p := range c.Packets {
		if p.Loss == LostUp {
			continue
		}
		if i == 19 {
			s19 = down.Samples[k].Sent
		}
		if i == 20 {
			s20 = down.Samples[k].Sent
		}
		k++
	}
	if want := s19 + c.Packets[20].ClientSend - c.Packets[19].ClientSend; s20 != want {
		t.Errorf("lost reply 20 placed at %v, want %v", s20, want)
	}
	f, err := c.Flow(Downlink)
	if err != nil {
		t.Fatal(err)
	}
	if f.SentPackets != int64(n) || f.LostPackets != 4 || f.BytesAcked != int64(n-4)*int64(c.Length) || f.MinRTTMs <= 0 || f.MinRTTMs > f.MeanRTTMs {
		t.Errorf("flow: sent %d lost %d bytes %d rtt %g/%g", f.SentPackets, f.LostPackets, f.BytesAcked, f.MinRTTMs, f.MeanRTTMs)
	}
}

// Bad input: one error naming the field and what is allowed.
func TestBadInput(t *testing.T) {
	file := irtttest.Capture(t, "c.json", 10*time.Millisecond, 200*time.Millisecond)
	for _, tc := range []struct {
		name string
		edit func(rts []map[string]any, top map[string]any)
		want string
	}{
		{"seqno", func(r []map[string]any, _ map[string]any) { r[3]["seqno"] = 7 }, "round_trips[3].seqno 7: want 3"},
		{"lost", func(r []map[string]any, _ map[string]any) { r[2]["lost"] = "maybe" }, `round_trips[2].lost "maybe": want false, true`},
		{"delay", func(r []map[string]any, _ map[string]any) { r[1]["delay"].(map[string]any)["send"] = 1e15 }, "round_trips[1].delay.send 1000000000000000 ns: want [-10m0s, 10m0s]"},
		{"rtt", func(r []map[string]any, _ map[string]any) { r[1]["delay"].(map[string]any)["rtt"] = -5 }, "round_trips[1].delay.rtt -5 ns: want [0s, 10m0s]"},
		{"wall", func(r []map[string]any, _ map[string]any) {
			r[4]["timestamps"].(map[string]any)["server"].(map[string]any)["send"].(map[string]any)["wall"] = -1
		}, "round_trips[4].timestamps.server.send.wall -1: want a wall-clock time within"},
		{"interval", func(_ []map[string]any, top map[string]any) {
			top["config"].(map[string]any)["params"].(map[string]any)["interval"] = 0
		}, "config.params.interval 0 ns: want (0, 168h0m0s]"},
		{"ip", func(_ []map[string]any, top map[string]any) { top["config"].(map[string]any)["ip_version"] = "IPX" }, `config.ip_version "IPX": want IPv4 or IPv6`},
		{"no round trips", func(_ []map[string]any, top map[string]any) { delete(top, "round_trips") }, "round_trips and config: missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("bad.json", editCapture(t, file, tc.edit))
			if err == nil || !strings.HasPrefix(err.Error(), "bad.json: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want bad.json: …%s…", err, tc.want)
			}
		})
	}
	if _, err := Read("x.json", []byte(`{"round_trips": [`)); err == nil || !strings.Contains(err.Error(), "x.json: not irtt JSON: truncated") {
		t.Errorf("truncated: %v", err)
	}
}
