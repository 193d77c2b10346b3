package iperf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

// ReadFile reads one iperf3 JSON log.
func ReadFile(path string) (*Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("iperf: %w", err)
	}
	return Parse(path, data)
}

// Read reads one iperf3 JSON log from r; name is used in messages.
func Read(name string, r io.Reader) (*Run, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("iperf %s: %w", name, err)
	}
	return Parse(name, data)
}

// Parse decodes the first JSON document of data as an iperf3 log. Text after
// it is tolerated and scanned for "error" documents. A document that is not
// JSON, is truncated, or is not a TCP test is an error naming the file and
// the byte offset.
func Parse(name string, data []byte) (*Run, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var doc rawDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, decodeError(name, data, dec, err)
	}
	r := &Run{File: name}
	rest := data[dec.InputOffset():]
	r.TrailerBytes = len(bytes.TrimSpace(rest))
	r.TrailerErrors = trailerErrors(rest)
	if r.TrailerBytes > 0 {
		r.warnf("trailer", "%d bytes after the first JSON document (%d error documents)",
			r.TrailerBytes, len(r.TrailerErrors))
	}
	r.Error = doc.Error
	if len(doc.Intervals) == 0 && (doc.End == nil || len(doc.End.Streams) == 0) {
		if doc.Error != "" {
			return nil, fmt.Errorf("iperf %s: iperf3 reported an error and no data: %q", name, doc.Error)
		}
		return nil, fmt.Errorf("iperf %s: byte 0: not an iperf3 log (no intervals and no end summary)", name)
	}
	if err := r.fillStart(doc.Start); err != nil {
		return nil, fmt.Errorf("iperf %s: %w", name, err)
	}
	r.fillIntervals(doc.Intervals)
	r.fillEnd(doc.End)
	r.check()
	return r, nil
}

// decodeError turns a json error into one message with the byte offset.
func decodeError(name string, data []byte, dec *json.Decoder, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return fmt.Errorf("iperf %s: byte 0: empty file", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("iperf %s: byte %d: truncated JSON document: %w", name, len(data), err)
	case errors.As(err, &syn):
		return fmt.Errorf("iperf %s: byte %d: not valid JSON: %w", name, syn.Offset, err)
	case errors.As(err, &typ):
		return fmt.Errorf("iperf %s: byte %d: field %q: JSON %s where %s expected: %w",
			name, typ.Offset, typ.Field, typ.Value, typ.Type, err)
	}
	return fmt.Errorf("iperf %s: byte %d: %w", name, dec.InputOffset(), err)
}

// trailerErrors collects the "error" fields of JSON objects that start a
// line in the text after the first document (iperf3 writes a second
// document when it exits on an error, e.g. iperf_errexit).
func trailerErrors(rest []byte) []string {
	var errs []string
	for off := 0; off < len(rest); {
		i := bytes.IndexByte(rest[off:], '{')
		if i < 0 {
			break
		}
		start := off + i
		if start > 0 && rest[start-1] != '\n' {
			off = start + 1
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(rest[start:]))
		var d struct {
			Error string `json:"error"`
		}
		if dec.Decode(&d) != nil {
			off = start + 1
			continue
		}
		if d.Error != "" {
			errs = append(errs, d.Error)
		}
		off = start + int(dec.InputOffset())
	}
	return errs
}

func (r *Run) fillStart(s *rawStart) error {
	if s == nil {
		r.warnf("start", "missing: test parameters unknown")
		r.Params.Protocol = "TCP"
		return nil
	}
	r.Version, r.SystemInfo = s.Version, s.SystemInfo
	r.Params.MSS = int(s.TCPMSSDefault)
	if s.Timestamp == nil {
		r.warnf("start.timestamp", "missing: start time unknown")
	} else if s.Timestamp.Timesecs != nil {
		r.Start = time.Unix(int64(*s.Timestamp.Timesecs), 0).UTC()
	} else if t, err := time.Parse(time.RFC1123, s.Timestamp.Time); err == nil {
		r.Start = t.UTC()
	} else {
		r.warnf("start.timestamp.time", "unparsable %q", s.Timestamp.Time)
	}
	ts := s.TestStart
	if ts == nil {
		r.warnf("start.test_start", "missing: test parameters unknown")
		r.Params.Protocol = "TCP"
		return nil
	}
	if ts.Protocol != "" && !strings.EqualFold(ts.Protocol, "TCP") {
		return fmt.Errorf("start.test_start.protocol %q: only TCP tests are supported", ts.Protocol)
	}
	r.Params.Protocol = "TCP"
	r.Params.Reverse = ts.Reverse != 0
	r.Params.NumStreams = int(ts.NumStreams)
	r.Params.Duration = seconds(ts.Duration)
	r.Params.Omit = seconds(ts.Omit)
	r.Params.BlockSize = int(ts.Blksize)
	r.Params.TargetBitrate = ts.TargetBitrate
	return nil
}

func (r *Run) fillIntervals(raw []rawInterval) {
	r.Intervals = make([]Interval, 0, len(raw))
	for i, ri := range raw {
		iv := Interval{}
		for j, rs := range ri.Streams {
			if j == 0 {
				iv.Start, iv.End, iv.Omitted = seconds(rs.Start), seconds(rs.End), rs.Omitted
			}
			iv.Streams = append(iv.Streams, r.streamSample(fmt.Sprintf("intervals[%d].streams[%d]", i, j), rs))
		}
		r.Intervals = append(r.Intervals, iv)
	}
}

func (r *Run) streamSample(path string, rs rawStream) StreamSample {
	s := StreamSample{
		Socket:        int(rs.Socket),
		Bytes:         r.count(path+".bytes", rs.Bytes),
		BitsPerSecond: rs.BitsPerSecond,
		PMTU:          int(rs.PMTU),
		Sender:        rs.Sender,
	}
	// The receiving side logs no tcp_info; iperf3 writes retransmits = -1
	// when the platform has none (iperf_api.c, iperf_print_intermediate).
	if rs.RTT != nil && rs.SndCwnd != nil && (rs.Retransmits == nil || *rs.Retransmits >= 0) {
		s.TCPInfo = true
		s.SndCwnd = r.count(path+".snd_cwnd", *rs.SndCwnd)
		s.RTT = micros(*rs.RTT)
		if rs.Retransmits != nil {
			s.Retransmits = r.count(path+".retransmits", *rs.Retransmits)
		}
		if rs.RTTVar != nil {
			s.RTTVar = micros(*rs.RTTVar)
		}
	}
	if rs.SndWnd != nil {
		s.SndWnd = r.count(path+".snd_wnd", *rs.SndWnd)
	}
	return s
}

func (r *Run) fillEnd(e *rawEnd) {
	if e == nil {
		r.warnf("end", "missing: run ended without a summary (killed or truncated)")
		return
	}
	r.SenderCC, r.ReceiverCC = e.SenderCC, e.ReceiverCC
	for i, s := range e.Streams {
		path := fmt.Sprintf("end.streams[%d]", i)
		var se StreamEnd
		if s.Sender != nil {
			se.Socket = int(s.Sender.Socket)
			se.Sender = r.totals(path+".sender", s.Sender)
			r.fillTCPEnd(path+".sender", &se, s.Sender)
		} else {
			r.warnf(path+".sender", "missing")
		}
		if s.Receiver != nil {
			se.Receiver = r.totals(path+".receiver", s.Receiver)
		}
		r.End.Streams = append(r.End.Streams, se)
	}
	if e.SumSent != nil {
		r.End.SumSent = r.totals("end.sum_sent", e.SumSent)
	}
	if e.SumReceived != nil {
		r.End.SumReceived = r.totals("end.sum_received", e.SumReceived)
	}
}

func (r *Run) fillTCPEnd(path string, se *StreamEnd, t *rawTotals) {
	if t.MaxSndWnd != nil {
		se.MaxSndWnd = r.count(path+".max_snd_wnd", *t.MaxSndWnd)
	}
	if t.MaxSndCwnd == nil || t.MeanRTT == nil || t.MinRTT == nil || t.MaxRTT == nil {
		return
	}
	// The receiving side writes zeros for these (it has no tcp_info).
	if *t.MaxSndCwnd == 0 && *t.MeanRTT == 0 {
		return
	}
	se.TCPInfo = true
	se.MaxSndCwnd = r.count(path+".max_snd_cwnd", *t.MaxSndCwnd)
	se.MinRTT, se.MeanRTT, se.MaxRTT = micros(*t.MinRTT), micros(*t.MeanRTT), micros(*t.MaxRTT)
}

func (r *Run) totals(path string, t *rawTotals) Totals {
	out := Totals{
		Start: seconds(t.Start), End: seconds(t.End), Seconds: t.Seconds,
		Bytes: r.count(path+".bytes", t.Bytes), BitsPerSecond: t.BitsPerSecond,
		Retransmits: -1,
	}
	if t.Retransmits != nil && *t.Retransmits >= 0 {
		out.Retransmits = r.count(path+".retransmits", *t.Retransmits)
	}
	return out
}

// count converts a JSON number that should be a non-negative integer,
// warning (and clamping to 0) when it is not.
func (r *Run) count(path string, v float64) int64 {
	switch {
	case v < 0:
		r.warnf(path, "negative count %g, read as 0", v)
		return 0
	case v >= math.MaxInt64:
		r.warnf(path, "count %g out of range, read as 0", v)
		return 0
	case v != math.Trunc(v):
		r.warnf(path, "non-integer count %g, rounded", v)
		return int64(math.Round(v))
	}
	return int64(v)
}

// seconds converts iperf3's float seconds to a Duration (ns precision).
func seconds(s float64) time.Duration {
	if math.IsNaN(s) || math.Abs(s) > maxSeconds {
		return 0
	}
	return time.Duration(math.Round(s * float64(time.Second)))
}

// micros converts tcp_info microseconds (rtt, rttvar) to a Duration.
func micros(us float64) time.Duration {
	if math.IsNaN(us) || us < 0 || us > maxSeconds*1e6 {
		return 0
	}
	return time.Duration(math.Round(us * float64(time.Microsecond)))
}
