package transport

// The socket's send buffer as a bulk application (iperf3) fills it under
// Linux. The application blocks while the buffer is full and is woken once
// the queued data drops to two thirds of the buffer (sk_stream_write_space
// wakes a writer when sk_stream_wspace ≥ sk_stream_min_wspace, free space
// at least half of what is queued); it then writes until the buffer is full
// again. Each write starts with tcp_rate_check_app_limited
// (tcp_sendmsg_locked): if less than one segment was left unsent, the flow
// is not cwnd limited and no loss is waiting for repair, the application
// was what held the flow, and the rate samples from here on are marked
// application limited (draft-cheng-iccrg-delivery-rate-estimation §3.4). A
// flow whose send buffer binds thus looks application limited to BBR, as it
// does under Linux. With the default 16 MiB buffer the application is woken
// at every check below 10.7 MB in flight and never finds the buffer drained,
// so such a flow is not affected.

// refillSendBuffer is the application's write after an ACK freed buffer
// space: it runs when what is queued (sent and unacknowledged, SACKed
// data included, plus unsent) has fallen to two thirds of SndBuf.
func (s *Sender) refillSendBuffer() {
	queued := s.written - s.sndUna
	if s.written != 0 && 3*queued > 2*uint64(s.cfg.SndBuf) {
		return
	}
	if s.written != 0 && s.written-s.sndNxt < uint64(s.cfg.MSS) && s.pipe() < s.ctrl.CWnd() && s.lostPending == 0 && s.rate.appLimited == 0 {
		s.rate.markAppLimited(s.pipe())
	}
	s.written = min(s.sndUna+uint64(s.cfg.SndBuf), s.limit)
}
