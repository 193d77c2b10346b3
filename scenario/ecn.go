package scenario

// marksECN reports whether any queue of the scenario has ecn: true (the
// path's two directions, its trace queue, or any link's).
func (s *Scenario) marksECN() bool {
	p := s.Path
	if p.Queue.ECN || p.Reverse.Queue.ECN || p.Trace.Queue.ECN {
		return true
	}
	for _, h := range s.Links {
		if h.Queue.ECN || h.Reverse.Queue.ECN {
			return true
		}
	}
	return false
}
