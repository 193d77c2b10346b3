package scenario

import (
	"strconv"
	"time"

	"github.com/leolab/leolab/link/schedule"
	"go.yaml.in/yaml/v3"
)

// Hop is one entry of a topology's links: a fixed link from node From to
// node To, in each direction (data from→to, ACKs to→from), with the fields
// of a fixed path. Flows name the links they cross (Flow.Route).
type Hop struct {
	Name     string
	From, To string
	RateBps  float64
	// RTT is the link's share of a round trip: RTT/2 of propagation each
	// way. A flow's base RTT is the sum over its links (plus extra_rtt).
	RTT      time.Duration
	Queue    Queue
	Loss     float64
	Reverse  Reverse
	Schedule []Change // rate, rtt and loss changes, as path.schedule
	// DelayFile replays a path file's one-way delays on this link, in both
	// directions, on top of its rtt, as path.delay_file does on a path.
	// Its handovers (on by default) become the run's handover schedule
	// only if every flow crosses this link on every route it takes, and
	// only one link may give them (validateLinkHandovers).
	DelayFile *DelayFile

	// read by Validate from delay_file
	pathLog     *schedule.PathLog
	handoverErr *schedule.ECDF
}

// PathLog returns the path file a validated link's delay_file read, nil
// without one.
func (h *Hop) PathLog() *schedule.PathLog { return h.pathLog }

// Move re-routes a flow at At onto Route, a path between the same two
// nodes (netsim.Move says what happens to packets in flight).
type Move struct {
	At    time.Duration
	Route []string
}

// Topology limits, each bounding what a file can make us allocate: 64
// links make a parking lot of 64 bottlenecks, far beyond seed 002's three;
// a flow moving 1024 times is one move every 3.5 s for an hour.
const (
	MaxLinks = 64
	MaxMoves = 1024
)

// Fields of links[i] and of flows[i].moves[j].
var (
	hopFields  = []string{"name", "from", "to", "rate", "rtt", "queue", "loss", "reverse", "schedule", "delay_file"}
	moveFields = []string{"at", "path"}
)

func (d *decoder) links(n *yaml.Node) []Hop {
	if !d.list(n, "links", "must be a non-empty list of links such as [{name: hop1, from: a, to: b, rate: 100Mbps, rtt: 20ms}]", true, MaxLinks, "links") {
		return nil
	}
	out := make([]Hop, 0, len(n.Content))
	for i, hn := range n.Content {
		at := "links[" + strconv.Itoa(i) + "]"
		d.lines[at] = hn.Line
		var h Hop
		d.fields(hn, at, hopFields, func(k string, v *yaml.Node) {
			f := at + "." + k
			switch k {
			case "name":
				h.Name = d.str(v, f)
			case "from":
				h.From = d.str(v, f)
			case "to":
				h.To = d.str(v, f)
			case "rate":
				h.RateBps = d.rate(v, f)
			case "rtt":
				h.RTT = d.duration(v, f)
			case "queue":
				h.Queue = d.queue(v, f)
			case "loss":
				h.Loss = d.float(v, f)
			case "reverse":
				h.Reverse = d.reverse(v, f)
			case "schedule":
				h.Schedule = d.schedule(v, f)
			case "delay_file":
				h.DelayFile = d.delayFile(v, f)
			}
		})
		if d.err != nil {
			return nil
		}
		out = append(out, h)
	}
	return out
}

// route reads a flow's path: a list of link names.
func (d *decoder) route(n *yaml.Node, path string) []string {
	if !d.list(n, path, "must be a non-empty list of link names such as [hop1, hop2]", true, MaxLinks, "links") {
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, v := range n.Content {
		fp := path + "[" + strconv.Itoa(i) + "]"
		d.lines[fp] = v.Line
		out = append(out, d.str(v, fp))
	}
	return out
}

func (d *decoder) moves(n *yaml.Node, path string) []Move {
	if !d.list(n, path, "must be a list of moves such as [{at: 100s, path: [short]}]", false, MaxMoves, "moves") {
		return nil
	}
	out := make([]Move, 0, len(n.Content))
	for i, mn := range n.Content {
		at := path + "[" + strconv.Itoa(i) + "]"
		d.lines[at] = mn.Line
		d.lines[at+".at"] = mn.Line // the entry's line until its at key says
		d.lines[at+".path"] = mn.Line
		m := Move{At: -1}
		d.fields(mn, at, moveFields, func(k string, v *yaml.Node) {
			switch k {
			case "at":
				m.At = d.duration(v, at+".at")
			case "path":
				m.Route = d.route(v, at+".path")
			}
		})
		if d.err != nil {
			return nil
		}
		out = append(out, m)
	}
	return out
}
