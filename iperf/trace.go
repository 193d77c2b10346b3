package iperf

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// ReadTraceFile reads one per-interval CSV trace of the Starlink dataset
// (../shared/data/starlink-iperf3/traces).
func ReadTraceFile(path string) (*Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("iperf: %w", err)
	}
	defer f.Close()
	return ReadTrace(path, f)
}

// ReadTrace reads a CSV trace: a first line "# key=value; key=value; ..."
// holding the source log's provenance and end summary, a header naming the
// columns (start, end, seconds, bytes, bits_per_second, retransmits,
// snd_cwnd, snd_wnd, rtt, rttvar, pmtu; any order, start/end/bytes
// required), then one row per iperf3 interval of stream 0. The result is a
// one-stream Run whose End comes from the first line.
func ReadTrace(name string, rd io.Reader) (*Run, error) {
	br := bufio.NewReader(rd)
	first, err := br.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("iperf %s: %w", name, err)
	}
	if !strings.HasPrefix(first, "#") {
		return nil, fmt.Errorf("iperf %s:1: want a \"# source=...\" provenance line, got %.40q", name, first)
	}
	r := &Run{File: name, Params: Params{Protocol: "TCP", NumStreams: 1}}
	if err := r.parseProvenance(strings.TrimSpace(strings.TrimPrefix(first, "#"))); err != nil {
		return nil, fmt.Errorf("iperf %s:1: %w", name, err)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("iperf %s:2: header: %w", name, err)
	}
	cols := columns(header)
	for _, need := range []string{"start", "end", "bytes"} {
		if _, ok := cols[need]; !ok {
			return nil, fmt.Errorf("iperf %s:2: header lacks column %q", name, need)
		}
	}
	for line := 3; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("iperf %s: %w", name, err)
		}
		iv, err := traceRow(cols, rec)
		if err != nil {
			return nil, fmt.Errorf("iperf %s:%d: %w", name, line, err)
		}
		r.Intervals = append(r.Intervals, iv)
	}
	r.check()
	return r, nil
}

func columns(header []string) map[string]int {
	m := make(map[string]int, len(header))
	for i, h := range header {
		m[strings.TrimSpace(h)] = i
	}
	return m
}

// traceRow parses one interval row.
func traceRow(cols map[string]int, rec []string) (Interval, error) {
	var firstErr error
	num := func(col string) float64 {
		i, ok := cols[col]
		if !ok || i >= len(rec) || firstErr != nil {
			return 0
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[i]), 64)
		if err != nil {
			firstErr = fmt.Errorf("column %s: %w", col, err)
		}
		return v
	}
	s := StreamSample{
		Bytes: int64(num("bytes")), BitsPerSecond: num("bits_per_second"),
		Retransmits: int64(num("retransmits")), SndCwnd: int64(num("snd_cwnd")),
		SndWnd: int64(num("snd_wnd")), RTT: micros(num("rtt")), RTTVar: micros(num("rttvar")),
		PMTU: int(num("pmtu")), Sender: true,
	}
	_, hasRTT := cols["rtt"]
	s.TCPInfo = hasRTT
	iv := Interval{Start: seconds(num("start")), End: seconds(num("end")), Streams: []StreamSample{s}}
	if firstErr == nil && s.Bytes < 0 {
		firstErr = fmt.Errorf("negative bytes %d", s.Bytes)
	}
	return iv, firstErr
}

// parseProvenance reads "k=v; k=v; end.streams[0].sender: k=v k=v".
func (r *Run) parseProvenance(line string) error {
	for part := range strings.SplitSeq(line, "; ") {
		if k, v, ok := strings.Cut(part, ": "); ok && strings.HasPrefix(k, "end.streams[0].sender") {
			if err := r.parseEndSender(v); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return fmt.Errorf("provenance field %q: want key=value", part)
		}
		if err := r.setProvenance(k, v); err != nil {
			return fmt.Errorf("provenance %s: %w", k, err)
		}
	}
	return nil
}

func (r *Run) setProvenance(k, v string) error {
	switch k {
	case "source":
		r.Source = v
	case "version":
		r.Version = v
	case "start.timestamp.time":
		t, err := time.Parse(time.RFC1123, v)
		if err != nil {
			return err
		}
		r.Start = t.UTC()
	case "start.test_start.reverse":
		r.Params.Reverse = v == "1"
	case "start.test_start.duration":
		d, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return err
		}
		r.Params.Duration = seconds(d)
	case "end.sender_tcp_congestion":
		r.SenderCC = v
	}
	return nil
}

// parseEndSender reads "bytes=N retransmits=N min_rtt=US mean_rtt=US max_rtt=US".
func (r *Run) parseEndSender(v string) error {
	se := StreamEnd{TCPInfo: true, Sender: Totals{Retransmits: -1}}
	for kv := range strings.FieldsSeq(v) {
		k, val, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		switch k {
		case "bytes":
			se.Sender.Bytes = n
		case "retransmits":
			se.Sender.Retransmits = n
		case "min_rtt":
			se.MinRTT = time.Duration(n) * time.Microsecond
		case "mean_rtt":
			se.MeanRTT = time.Duration(n) * time.Microsecond
		case "max_rtt":
			se.MaxRTT = time.Duration(n) * time.Microsecond
		case "max_snd_cwnd":
			se.MaxSndCwnd = n
		}
	}
	r.End.Streams = []StreamEnd{se}
	return nil
}
