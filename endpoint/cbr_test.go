package endpoint

import (
	"context"
	"math"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Rates whose packet gap is not a positive int64 of nanoseconds are
// refused: 1e-9 bit/s overflowed it and the sender went unpaced (issue
// 18); NaN passed a "<= 0" check; a gap below 1 ns never advanced.
func TestCBRValidateRate(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want string
	}{
		{8e6, ""},
		{1, ""}, // 12 s per 1500-byte packet: slow, but paced
		{1e-9, "ns apart; want [1 ns, 24h0m0s]"},
		{0, "must be finite and > 0"},
		{math.NaN(), "must be finite and > 0"},
		{math.Inf(1), "must be finite and > 0"},
		{1e300, "ns apart"},
	} {
		err := CBR{RateBps: c.rate, Duration: time.Second}.Validate()
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("rate %g: %v, want %q", c.rate, err, c.want)
		}
	}
}

// A trace stops at TraceLimit; the packets beyond it are still counted.
func TestCBRTraceLimit(t *testing.T) {
	rx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	tx, err := net.DialUDP("udp4", nil, rx.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	for _, c := range []*net.UDPConn{rx, tx} {
		if err := PrepareUDP(c); err != nil {
			t.Fatal(err)
		}
	}
	flow := CBR{RateBps: 8e6, Size: 1000, Duration: 50 * time.Millisecond, Drain: 200 * time.Millisecond, Trace: true, TraceLimit: 10}
	epoch := time.Now()
	var stop atomic.Bool
	got := make(chan *CBRReport, 1)
	go func() { rep, _ := ReceiveCBR(rx, epoch, flow, &stop); got <- rep }()
	if _, err := SendCBR(context.Background(), tx, epoch, flow); err != nil {
		t.Fatal(err)
	}
	rep := <-got
	if len(rep.Trace) != 10 || rep.Received != 50 {
		t.Errorf("trace %d, received %d; want 10 and 50", len(rep.Trace), rep.Received)
	}
}
