package scenario

import (
	"slices"
	"strconv"
	"strings"

	"github.com/leolab/leolab/internal/quantity"
)

// validateTopology checks links: each link as a fixed path, names unique.
func (s *Scenario) validateTopology(fail failFunc) error {
	if !s.Path.isZero() {
		return fail("path", "give path (one link) or links (a topology), not both")
	}
	seen := map[string]int{}
	for i, h := range s.Links {
		at := "links[" + strconv.Itoa(i) + "]"
		for _, f := range hopFields { // a missing field: the entry's line
			s.lineOf(at+"."+f, at)
		}
		switch {
		case h.Name == "":
			return fail(at+".name", "missing: every link needs a name for flows' paths, e.g. name: hop1")
		case h.From == "":
			return fail(at+".from", "missing: the node the link leaves (data direction), e.g. from: r0")
		case h.To == "":
			return fail(at+".to", "missing: the node the link reaches (data direction), e.g. to: r1")
		case h.From == h.To:
			return fail(at+".to", "%q: the same node as from; a link joins two nodes", h.To)
		}
		if j, dup := seen[h.Name]; dup {
			return fail(at+".name", "%q: already the name of links[%d] (line %d); names must be unique", h.Name, j, s.lines["links["+strconv.Itoa(j)+"]"])
		}
		seen[h.Name] = i
		if err := s.validateHop(at, h, fail); err != nil {
			return err
		}
		var err error
		if s.Links[i].pathLog, s.Links[i].handoverErr, err = s.readDelayFile(at+".delay_file", h.DelayFile, fail); err != nil {
			return err
		}
	}
	return nil
}

// handoverLink is the index of the link whose delay_file gives the run's
// handovers, -1 if none does.
func (s *Scenario) handoverLink() int {
	return slices.IndexFunc(s.Links, func(h Hop) bool { return h.DelayFile != nil && h.DelayFile.Handovers })
}

// validateLinkHandovers checks that a link delay file's handovers can be
// the run's schedule. The controllers that use one (LeoCC, SaTCP) get a
// single schedule for the run (netsim.Spec.Schedule), so at most one link
// may give handovers, and every flow must cross that link on its path and
// on every move's: a flow elsewhere would be told of handovers on a link
// it never crosses.
func (s *Scenario) validateLinkHandovers(fail failFunc) error {
	k := s.handoverLink()
	if k < 0 {
		return nil
	}
	name := s.Links[k].Name
	kat := "links[" + strconv.Itoa(k) + "]"
	for j := k + 1; j < len(s.Links); j++ {
		if df := s.Links[j].DelayFile; df != nil && df.Handovers {
			at := "links[" + strconv.Itoa(j) + "].delay_file.handovers"
			return fail(at, "%s (line %d) already gives the run's handovers, and controllers get one schedule for the run; set handovers: false on all delay files but one", kat, s.lines[kat])
		}
	}
	const why = "the run's handover schedule comes from %s's delay_file (%s, line %d) and goes to every flow; every flow must cross %s on every path it takes, or set handovers: false there"
	for i, f := range s.Flows {
		at := "flows[" + strconv.Itoa(i) + "]"
		if f.Route != nil && !slices.Contains(f.Route, name) {
			return fail(at+".path", "does not cross %s: "+why, name, name, kat, s.lines[kat], name)
		}
		for j, m := range f.Moves {
			if !slices.Contains(m.Route, name) {
				mat := at + ".moves[" + strconv.Itoa(j) + "].path"
				return fail(mat, "does not cross %s: "+why, name, name, kat, s.lines[kat], name)
			}
		}
	}
	return nil
}

func (s *Scenario) validateHop(at string, h Hop, fail failFunc) error {
	if err := quantity.LinkRate(h.RateBps); err != nil {
		return fail(at+".rate", "%v", err)
	}
	if err := quantity.Delay(h.RTT); err != nil {
		return fail(at+".rtt", "%v", err)
	}
	if err := quantity.Probability(h.Loss); err != nil {
		return fail(at+".loss", "%v", err)
	}
	if err := validateQueue(at+".queue", h.Queue, h.RateBps, fail); err != nil {
		return err
	}
	revRate := h.RateBps
	if h.Reverse.RateBps != 0 {
		if err := quantity.LinkRate(h.Reverse.RateBps); err != nil {
			return fail(at+".reverse.rate", "%v (or omit it for the forward rate)", err)
		}
		revRate = h.Reverse.RateBps
	}
	if err := quantity.Probability(h.Reverse.Loss); err != nil {
		return fail(at+".reverse.loss", "%v", err)
	}
	if err := validateQueue(at+".reverse.queue", h.Reverse.Queue, revRate, fail); err != nil {
		return err
	}
	return s.validateSchedule(at+".schedule", h.Schedule, fail)
}

// validateRoutes checks every flow's path and moves against the links:
// known names, connected from node to node, no node twice, and moves in
// time order between the same two nodes as the flow's path.
func (s *Scenario) validateRoutes(fail failFunc) error {
	for i, f := range s.Flows {
		at := "flows[" + strconv.Itoa(i) + "]"
		s.lineOf(at+".path", at+".cca") // a missing path: the flow's line
		if s.Links == nil {
			if f.Route != nil || f.Moves != nil {
				return fail(at+".path", "path and moves name links of a topology: give links: instead of path: (see README, Topologies)")
			}
			continue
		}
		route := f.Route
		if route == nil {
			if len(s.Links) > 1 {
				return fail(at+".path", "missing: with several links every flow names the links it crosses (allowed: %s)", s.linkNames())
			}
			route = []string{s.Links[0].Name}
		}
		from, to, err := s.checkRoute(at+".path", route, fail)
		if err != nil {
			return err
		}
		prev := f.Start
		for j, m := range f.Moves {
			mat := at + ".moves[" + strconv.Itoa(j) + "]"
			switch {
			case m.At < 0:
				return fail(mat+".at", "missing or negative: every move needs at, a time after the flow's start %v and before the end %v", f.Start, s.Duration)
			case m.At >= s.Duration:
				return fail(mat+".at", "%v: after the run ends (allowed: (%v, %v))", m.At, prev, s.Duration)
			case m.At <= prev && j == 0:
				return fail(mat+".at", "%v: not after the flow's start %v (allowed: (%v, %v))", m.At, f.Start, prev, s.Duration)
			case m.At <= prev:
				return fail(mat+".at", "%v: not after the previous move at %v (line %d); moves must be in time order", m.At, prev, s.lines[at+".moves["+strconv.Itoa(j-1)+"]"])
			case m.Route == nil:
				return fail(mat+".path", "missing: the links the flow crosses from then on (allowed: %s)", s.linkNames())
			}
			mf, mt, err := s.checkRoute(mat+".path", m.Route, fail)
			if err != nil {
				return err
			}
			if mf != from || mt != to {
				return fail(mat+".path", "goes from %s to %s, but the flow's path goes from %s to %s; a move changes the route between the same two nodes", mf, mt, from, to)
			}
			prev = m.At
		}
	}
	return nil
}

// checkRoute checks one path and returns its end nodes.
func (s *Scenario) checkRoute(field string, route []string, fail failFunc) (from, to string, err error) {
	nodes := make([]string, 0, len(route)+1)
	for k, name := range route {
		fk := field + "[" + strconv.Itoa(k) + "]"
		j := s.linkIndex(name)
		if j < 0 {
			return "", "", fail(fk, "%q is not a link (allowed: %s)", name, s.linkNames())
		}
		h := s.Links[j]
		if k > 0 && h.From != nodes[len(nodes)-1] {
			return "", "", fail(fk, "%q starts at node %s, but %q ends at node %s: a path must be connected (each link from the node the previous one reaches)", name, h.From, route[k-1], nodes[len(nodes)-1])
		}
		if k == 0 {
			nodes = append(nodes, h.From)
		}
		if slices.Contains(nodes, h.To) {
			return "", "", fail(fk, "%q returns to node %s: a path visits each node once", name, h.To)
		}
		nodes = append(nodes, h.To)
	}
	return nodes[0], nodes[len(nodes)-1], nil
}

func (s *Scenario) linkIndex(name string) int {
	return slices.IndexFunc(s.Links, func(h Hop) bool { return h.Name == name })
}

func (s *Scenario) linkNames() string {
	names := make([]string, len(s.Links))
	for i, h := range s.Links {
		names[i] = h.Name
	}
	return strings.Join(names, ", ")
}

// isZero reports whether no path field is set (a topology scenario).
func (p *Path) isZero() bool {
	return p.Profile == "" && p.City == "" && p.Direction == "" && p.Overrides == nil &&
		p.RateBps == 0 && p.RTT == 0 && p.Loss == 0 && p.Queue.IsZero() &&
		p.Reverse.RateBps == 0 && p.Reverse.Loss == 0 && p.Reverse.Queue.IsZero() &&
		p.Schedule == nil && p.DelayFile == nil && !p.Trace.given
}

// lineOf gives field the line of fallback when the file did not set it
// (a missing field is reported at its entry).
func (s *Scenario) lineOf(field, fallback string) {
	if _, ok := s.lines[field]; !ok && s.lines != nil {
		s.lines[field] = s.lines[fallback]
	}
}

// SharedPath returns nil when every flow of a topology crosses the same
// links and none moves (what the live emulator can run: links in series),
// else an *Error naming the first flow that does not; nil for a path:
// scenario.
func (s *Scenario) SharedPath() error {
	if s.Links == nil {
		return nil
	}
	first := s.Flows[0].Route
	if first == nil {
		first = []string{s.Links[0].Name}
	}
	const why = "the live emulator runs a topology only when every flow crosses the same links and none moves (it has one path per direction and cannot route by flow); run this one with leolab sim"
	for i, f := range s.Flows {
		at := "flows[" + strconv.Itoa(i) + "]"
		r := f.Route
		if r == nil {
			r = []string{s.Links[0].Name}
		}
		switch {
		case len(f.Moves) > 0:
			return &Error{File: s.File, Line: s.lines[at+".moves"], Field: at + ".moves", Msg: why}
		case !slices.Equal(r, first):
			return &Error{File: s.File, Line: s.lines[at+".path"], Field: at + ".path",
				Msg: "[" + strings.Join(r, ", ") + "] differs from flows[0]'s [" + strings.Join(first, ", ") + "]: " + why}
		}
	}
	return nil
}
