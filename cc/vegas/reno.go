package vegas

// Reno's window growth, which Vegas falls back to (Linux net/ipv4/tcp_cong.c:
// tcp_slow_start, tcp_cong_avoid_ai, tcp_reno_cong_avoid). Counted in
// segments, as Linux does.

// cwndClamp is Linux's default snd_cwnd_clamp (~0U), bounded to keep byte
// windows within int.
const cwndClamp = 1 << 30

// inSlowStart is tcp_in_slow_start.
func (v *Vegas) inSlowStart() bool { return v.cwnd < v.ssthresh }

// slowStart is tcp_slow_start: grow by the acknowledged segments up to
// ssthresh and return what is left over for additive increase.
func (v *Vegas) slowStart(acked int64) int64 {
	cwnd := min(v.cwnd+acked, v.ssthresh)
	acked -= cwnd - v.cwnd
	v.cwnd = min(cwnd, cwndClamp)
	return acked
}

// congAvoidAI is tcp_cong_avoid_ai: one segment per w acknowledged.
func (v *Vegas) congAvoidAI(w, acked int64) {
	if v.cwndCnt >= w {
		v.cwndCnt = 0
		v.cwnd++
	}
	v.cwndCnt += acked
	if v.cwndCnt >= w {
		d := v.cwndCnt / w
		v.cwndCnt -= d * w
		v.cwnd += d
	}
	v.cwnd = min(v.cwnd, cwndClamp)
}

// renoCongAvoid is tcp_reno_cong_avoid: grow only when the window is the
// limit (tcp_is_cwnd_limited), slow start below ssthresh, then AI.
func (v *Vegas) renoCongAvoid(acked int64) {
	if !v.cwndLimited() {
		return
	}
	if v.inSlowStart() {
		if acked = v.slowStart(acked); acked == 0 {
			return
		}
	}
	v.congAvoidAI(v.cwnd, acked)
}

// cwndLimited approximates tcp_is_cwnd_limited from the largest inflight
// seen since the last round: the window was filled, or in slow start it is
// less than twice what was in flight.
func (v *Vegas) cwndLimited() bool {
	w := v.cwnd * int64(v.mss)
	if v.maxInflight+int64(v.mss) > w {
		return true
	}
	return v.inSlowStart() && w < 2*v.maxInflight
}
