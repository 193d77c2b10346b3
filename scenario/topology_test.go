package scenario_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/scenario"
)

// topoBase is a parking lot of two links plus a parallel link; the cases
// replace FLOWS (and LINKS, when set).
const topoBase = `version: 1
name: topo
duration: 60s
links:
  - {name: hop1, from: a, to: b, rate: 100Mbps, rtt: 10ms}
  - {name: hop2, from: b, to: c, rate: 50Mbps, rtt: 10ms}
  - {name: alt, from: a, to: b, rate: 100Mbps, rtt: 40ms}
LINKS
flows:
FLOWS
`

// topoSrc is topoBase with its links after the three given and its flows.
func topoSrc(links, flows string) string {
	return strings.Replace(strings.Replace(topoBase, "LINKS\n", links, 1), "FLOWS\n", flows, 1)
}

func parseTopo(t *testing.T, links, flows string) (*scenario.Scenario, error) {
	t.Helper()
	src := topoSrc(links, flows)
	file := filepath.Join(t.TempDir(), "topo.yaml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return scenario.Load(file)
}

// A topology's flows get the data hops of their path and the ACK hops
// back in reverse; moves become netsim moves; each link is two hops.
func TestTopologySpec(t *testing.T) {
	sc, err := parseTopo(t, "", "  - {cca: cubic, path: [hop1, hop2], extra_rtt: 5ms, moves: [{at: 10s, path: [alt, hop2]}]}\n  - {cca: cbr, rate: 1Mbps, packet_size: 100, path: [hop2]}\n")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Hops) != 6 || spec.Hops[0].Name != "hop1.forward" || spec.Hops[4].Name != "hop2.reverse" || spec.Hops[4].Direction != "reverse" {
		t.Fatalf("hops %+v", spec.Hops)
	}
	f := spec.Flows[0]
	if !equal(f.Route.Data, 0, 1) || !equal(f.Route.Ack, 4, 3) {
		t.Errorf("route %+v, want data [0 1] ack [4 3]", f.Route)
	}
	if len(f.Moves) != 1 || f.Moves[0].At != 10*time.Second || !equal(f.Moves[0].Route.Data, 2, 1) || !equal(f.Moves[0].Route.Ack, 4, 5) {
		t.Errorf("moves %+v", f.Moves)
	}
	if spec.BaseRTT != 25*time.Millisecond {
		t.Errorf("base rtt %v, want 25ms (10 + 10 + extra 5)", spec.BaseRTT)
	}
	if !equal(spec.Flows[1].Route.Data, 1) {
		t.Errorf("cbr route %+v", spec.Flows[1].Route)
	}
}

func equal(got []int, want ...int) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// Bad topologies: one error naming the file, the line, the field and
// what is allowed (issue 19, acceptance 6, for topologies).
func TestTopologyBadInput(t *testing.T) {
	testBadInput(t, filepath.Join(t.TempDir(), "topo.yaml"), []badInput{
		{"unknown link", topoSrc("", "  - {cca: cubic, path: [hop1, hop3]}\n"),
			[]string{"topo.yaml:9:", "flows[0].path[1]", `"hop3" is not a link`, "allowed: hop1, hop2, alt"}},
		{"not connected", topoSrc("", "  - {cca: cubic, path: [hop2, hop1]}\n"),
			[]string{"topo.yaml:9:", "flows[0].path[1]", `"hop1" starts at node a, but "hop2" ends at node c`, "connected"}},
		{"parallel links in series", topoSrc("", "  - {cca: cubic, path: [hop1, alt]}\n"),
			[]string{"topo.yaml:9:", "flows[0].path[1]", `"alt" starts at node a`}},
		{"loop", topoSrc("  - {name: back, from: b, to: a, rate: 10Mbps, rtt: 1ms}\n", "  - {cca: cubic, path: [hop1, back]}\n"),
			[]string{"topo.yaml:10:", "flows[0].path[1]", "returns to node a", "each node once"}},
		{"move out of order", topoSrc("", "  - cca: cubic\n    path: [hop1]\n    moves:\n      - {at: 30s, path: [alt]}\n      - {at: 20s, path: [hop1]}\n"),
			[]string{"topo.yaml:13:", "flows[0].moves[1].at", "20s: not after the previous move at 30s (line 12)", "time order"}},
		{"move before start", topoSrc("", "  - {cca: cubic, start: 5s, path: [hop1], moves: [{at: 5s, path: [alt]}]}\n"),
			[]string{"topo.yaml:9:", "flows[0].moves[0].at", "not after the flow's start 5s", "allowed: (5s, 1m0s)"}},
		{"move after the end", topoSrc("", "  - {cca: cubic, path: [hop1], moves: [{at: 60s, path: [alt]}]}\n"),
			[]string{"topo.yaml:9:", "flows[0].moves[0].at", "after the run ends"}},
		{"move without at", topoSrc("", "  - {cca: cubic, path: [hop1], moves: [{path: [alt]}]}\n"),
			[]string{"topo.yaml:9:", "flows[0].moves[0].at", "missing"}},
		{"move elsewhere", topoSrc("", "  - {cca: cubic, path: [hop1], moves: [{at: 10s, path: [hop1, hop2]}]}\n"),
			[]string{"topo.yaml:9:", "flows[0].moves[0].path", "goes from a to c, but the flow's path goes from a to b", "same two nodes"}},
		{"move to an unknown link", topoSrc("", "  - {cca: cubic, path: [hop1], moves: [{at: 10s, path: [nowhere]}]}\n"),
			[]string{"topo.yaml:9:", "flows[0].moves[0].path[0]", `"nowhere" is not a link`, "allowed: hop1, hop2, alt"}},
		{"no path with several links", topoSrc("", "  - {cca: cubic}\n"),
			[]string{"topo.yaml:9:", "flows[0].path", "missing", "allowed: hop1, hop2, alt"}},
		{"duplicate name", topoSrc("  - {name: hop1, from: c, to: d, rate: 10Mbps, rtt: 1ms}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].name", `"hop1": already the name of links[0] (line 5)`}},
		{"no from", topoSrc("  - {name: x, to: d, rate: 10Mbps, rtt: 1ms}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].from", "missing"}},
		{"self link", topoSrc("  - {name: x, from: d, to: d, rate: 10Mbps, rtt: 1ms}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].to", "same node"}},
		{"unknown link field", topoSrc("  - {name: x, from: c, to: d, bandwidth: 10Mbps}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].bandwidth", "unknown field", "allowed: name, from, to, rate, rtt, queue, loss, reverse, schedule"}},
		{"unknown discipline", topoSrc("  - {name: x, from: c, to: d, rate: 10Mbps, rtt: 1ms, queue: {discipline: wfq}}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].queue.discipline", "wfq", "sfq"}},
		{"bad rate", topoSrc("  - {name: x, from: c, to: d, rtt: 1ms}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].rate"}},
		{"schedule out of order", topoSrc("  - {name: x, from: c, to: d, rate: 10Mbps, rtt: 1ms, schedule: [{at: 20s, rate: 5Mbps}, {at: 10s, rate: 1Mbps}]}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:8:", "links[3].schedule[1].at", "time order"}},
		{"path and links", topoSrc("path: {profile: fixed, rate: 10Mbps, rtt: 10ms}\n", "  - {cca: cubic, path: [hop1]}\n"),
			[]string{"topo.yaml:", "path", "not both"}},
	})
}

// A flow's path on a single-link path: the error says to use links.
func TestFlowPathNeedsLinks(t *testing.T) {
	_, err := scenario.Parse("p.yaml", []byte("version: 1\nduration: 10s\npath: {profile: fixed, rate: 10Mbps, rtt: 10ms}\nflows: [{cca: cubic, path: [x]}]\n"))
	if err == nil || !strings.Contains(err.Error(), "p.yaml:4: flows[0].path: path and moves name links of a topology") {
		t.Fatalf("got %v", err)
	}
}

// A one-link topology is the single-link dumbbell: the same numbers as
// the path: form (the same stages; the random streams differ in name, and
// this path has no loss or random qdisc).
func TestOneLinkTopologyIsTheDumbbell(t *testing.T) {
	run := func(src string) (float64, float64) {
		_, spec, err := scenario.ParseSpec("one.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res, err := netsim.Run(spec)
		if err != nil {
			t.Fatal(err)
		}
		return res.Flows[0].ThroughputMbps, res.Flows[0].MeanRTTMs
	}
	head := "version: 1\nduration: 20s\nflows: [{cca: cubic}]\n"
	tp, rp := run(head + "path: {profile: fixed, rate: 20Mbps, rtt: 40ms, queue: {limit_packets: 67}}\n")
	tl, rl := run(head + "links: [{name: l, from: a, to: b, rate: 20Mbps, rtt: 40ms, queue: {limit_packets: 67}}]\n")
	if tp != tl || rp != rl {
		t.Errorf("path: %.4f Mbit/s %.3f ms; links: %.4f Mbit/s %.3f ms", tp, rp, tl, rl)
	}
}

// FuzzParseTopology: any accepted topology builds every hop, and its
// flows' routes pass netsim's checks.
func FuzzParseTopology(f *testing.F) {
	head := "version: 1\nduration: 10s\n"
	f.Add([]byte(head + "links: [{name: a, from: x, to: y, rate: 10Mbps, rtt: 10ms}, {name: b, from: y, to: z, rate: 5Mbps, rtt: 5ms, queue: {discipline: sfq}}]\nflows: [{cca: cubic, path: [a, b]}, {cca: cbr, rate: 1Mbps, packet_size: 100, path: [b]}]\n"))
	f.Add([]byte(head + "links: [{name: s, from: x, to: y, rate: 10Mbps, rtt: 10ms}, {name: l, from: x, to: y, rate: 10Mbps, rtt: 40ms, schedule: [{at: 2s, rate: 1Mbps}]}]\nflows: [{cca: reno, path: [l], moves: [{at: 3s, path: [s]}, {at: 6s, path: [l]}]}]\n"))
	f.Add([]byte(head + "links: [{name: a, from: x, to: y, rate: 10Mbps, rtt: 1ms, reverse: {rate: 1Mbps, loss: 0.1}}]\nflows: [{cca: cubic}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse("fuzz.yaml", data)
		if err != nil || s.Links == nil {
			return
		}
		spec, err := s.Spec()
		if err != nil {
			t.Fatalf("accepted, but no spec: %v", err)
		}
		if err := spec.Validate(); err != nil {
			t.Fatalf("accepted, but netsim refuses it: %v", err)
		}
		drop := func(time.Duration, *packet.Packet, link.DropCause) {}
		for _, l := range spec.Hops {
			if _, err := l.Build(drop); err != nil {
				t.Fatalf("accepted, but link %s does not build: %v", l.Name, err)
			}
		}
	})
}

// The budget of a topology counts every link's data direction (each hop
// moves its packets) and both directions' series.
func TestTopologyBudget(t *testing.T) {
	sc, err := scenario.Load("../examples/seed002/fig7-parking-lot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := sc.Budget()
	want := (20e6 + 40e6 + 60e6) / 8 / 1500 * 1.5 * 60
	if math.Abs(b.Packets/want-1) > 1e-9 {
		t.Errorf("packets %.4g, want %.4g", b.Packets, want)
	}
}
