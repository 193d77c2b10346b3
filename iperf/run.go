package iperf

import (
	"fmt"
	"time"
)

// Run is one iperf3 test as read from a log: what was asked, what was
// measured per interval and per stream, and the end summary.
type Run struct {
	File       string    // name the run was read from (for messages)
	Source     string    // provenance line of a CSV trace, if any
	Version    string    // start.version, e.g. "iperf 3.16"
	SystemInfo string    // start.system_info
	Start      time.Time // start.timestamp (UTC); zero when missing
	Params     Params
	// SenderCC and ReceiverCC are end.sender_tcp_congestion and
	// end.receiver_tcp_congestion.
	SenderCC   string
	ReceiverCC string
	Intervals  []Interval
	End        End
	// Error is the "error" field of the first document (e.g. "interrupt -
	// the server has terminated"); the run's data up to it is kept.
	Error string
	// TrailerBytes counts the bytes after the first JSON document;
	// TrailerErrors holds the "error" fields of JSON documents among them.
	TrailerBytes  int
	TrailerErrors []string
	Warnings      []Warning
}

// Params are the test parameters from start.test_start and start.
type Params struct {
	Protocol      string // "TCP"
	Reverse       bool   // -R: the server sends
	NumStreams    int    // -P
	Duration      time.Duration
	Omit          time.Duration
	BlockSize     int     // bytes per write
	TargetBitrate float64 // bits/s, 0 = unlimited
	MSS           int     // start.tcp_mss_default, bytes
}

// Interval is one reporting interval (iperf3 -i, 1 s by default).
type Interval struct {
	Start, End time.Duration // since the test start
	Omitted    bool
	Streams    []StreamSample
}

// StreamSample is one stream's figures for one interval. TCPInfo tells
// whether the sender-side tcp_info fields (retransmits, snd_cwnd, rtt,
// rttvar) were present: the receiving side of a test does not log them.
type StreamSample struct {
	Socket        int
	Bytes         int64
	BitsPerSecond float64
	TCPInfo       bool
	Retransmits   int64
	SndCwnd       int64 // bytes
	SndWnd        int64 // bytes; 0 when not logged
	RTT           time.Duration
	RTTVar        time.Duration
	PMTU          int
	Sender        bool // the logging side was the sender of this stream
}

// End is the end summary.
type End struct {
	Streams     []StreamEnd
	SumSent     Totals
	SumReceived Totals
}

// StreamEnd is one stream's end summary (end.streams[i]).
type StreamEnd struct {
	Socket     int
	Sender     Totals
	Receiver   Totals
	TCPInfo    bool // max_snd_cwnd and the RTT figures were present and nonzero
	MaxSndCwnd int64
	MaxSndWnd  int64
	MinRTT     time.Duration
	MeanRTT    time.Duration
	MaxRTT     time.Duration
}

// Totals are byte and retransmit totals over a span of the test.
type Totals struct {
	Start, End    time.Duration
	Seconds       float64
	Bytes         int64
	BitsPerSecond float64
	Retransmits   int64 // -1 when not reported
}

// Warning is one oddity found in a log: where, what value, and why it is
// suspicious. Warnings never stop a read.
type Warning struct {
	Path   string // JSON path or CSV line, e.g. "end.streams[0].sender.max_snd_cwnd"
	Reason string
}

func (w Warning) String() string { return w.Path + ": " + w.Reason }

// warnf appends a warning.
func (r *Run) warnf(path, format string, args ...any) {
	r.Warnings = append(r.Warnings, Warning{Path: path, Reason: fmt.Sprintf(format, args...)})
}

// Duration is the span covered by the intervals (end of the last interval),
// or the end summary's span when there are no intervals.
func (r *Run) Duration() time.Duration {
	if n := len(r.Intervals); n > 0 {
		return r.Intervals[n-1].End
	}
	var d time.Duration
	for _, s := range r.End.Streams {
		d = max(d, s.Sender.End, s.Receiver.End)
	}
	return d
}

// NumStreams is the number of streams seen in the log.
func (r *Run) NumStreams() int {
	n := len(r.End.Streams)
	for _, iv := range r.Intervals {
		n = max(n, len(iv.Streams))
	}
	return n
}
