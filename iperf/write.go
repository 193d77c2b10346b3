package iperf

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/leolab/leolab/result"
)

// Fixed fields of the JSON that Write produces, as iperf3 3.16 writes them
// for a default TCP test (src/iperf_api.c, iperf_json_start and
// iperf_print_results).
const (
	writeVersion  = "iperf 3.16 (leolab)" // start.version; tools match "iperf 3"
	writeBlksize  = 131072                // iperf3's default TCP write size (-l)
	writeSocket   = 5                     // first data socket number iperf3 reports
	writeMSS      = 1448                  // start.tcp_mss_default: 1500 B MTU minus IP/TCP/timestamps
	writeIndent   = "\t"                  // cJSON_Print indents with tabs
	jsonFileMode  = 0o644
	jsonDirPrefix = "flow"
)

// WriteOptions says what Write cannot learn from a result.Flow.
type WriteOptions struct {
	// Epoch is the wall-clock instant of the run's t = 0; the flow's
	// start.timestamp is Epoch + StartS.
	Epoch time.Time
	// Reverse marks a downlink flow (server → client), written as -R.
	Reverse bool
	// Duration is the test length asked for (-t); 0 means EndS - StartS.
	Duration time.Duration
}

// Write renders f as an iperf3 3.16-compatible JSON log of a one-stream TCP
// test, as seen by its sender: start (timestamp, test_start), one interval
// per f.Intervals with bytes, bits_per_second, retransmits, snd_cwnd, rtt and
// rttvar in µs, and end.streams[0].sender with bytes, retransmits,
// max_snd_cwnd and min/mean/max_rtt, plus end.sender_tcp_congestion.
// max_rtt is the largest per-interval srtt (a Flow keeps no per-ACK maximum).
func Write(w io.Writer, f result.Flow, opt WriteOptions) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", writeIndent)
	if err := enc.Encode(document(f, opt)); err != nil {
		return fmt.Errorf("iperf: write flow %d: %w", f.ID, err)
	}
	return nil
}

// WriteDir writes one JSON log per flow of res into dir (created if
// needed), named flow<ID>_<cca>.json, and returns the paths written.
func WriteDir(dir string, res result.Result) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("iperf: %w", err)
	}
	opt := WriteOptions{Reverse: res.Path.Direction == "downlink",
		Duration: time.Duration(res.DurationS * float64(time.Second))}
	if res.EpochUTC != "" {
		t, err := time.Parse(time.RFC3339Nano, res.EpochUTC)
		if err != nil {
			return nil, fmt.Errorf("iperf: epoch_utc %q: %w", res.EpochUTC, err)
		}
		opt.Epoch = t
	}
	var paths []string
	for _, f := range res.Flows {
		p := filepath.Join(dir, fmt.Sprintf("%s%d_%s.json", jsonDirPrefix, f.ID, f.CCA))
		fh, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, jsonFileMode)
		if err != nil {
			return paths, fmt.Errorf("iperf: %w", err)
		}
		err = Write(fh, f, opt)
		if cerr := fh.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("iperf: %w", cerr)
		}
		if err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

type outDoc struct {
	Start     outStart      `json:"start"`
	Intervals []outInterval `json:"intervals"`
	End       outEnd        `json:"end"`
}

type outStart struct {
	Version       string          `json:"version"`
	SystemInfo    string          `json:"system_info"`
	Timestamp     outTimestamp    `json:"timestamp"`
	TCPMSSDefault int             `json:"tcp_mss_default"`
	TestStart     outTestStart    `json:"test_start"`
	Connected     []outConnection `json:"connected"`
}

type outTimestamp struct {
	Time     string `json:"time"`
	Timesecs int64  `json:"timesecs"`
}

type outConnection struct {
	Socket int `json:"socket"`
}

type outTestStart struct {
	Protocol   string `json:"protocol"`
	NumStreams int    `json:"num_streams"`
	Blksize    int    `json:"blksize"`
	Omit       int    `json:"omit"`
	Duration   int64  `json:"duration"`
	Bytes      int    `json:"bytes"`
	Blocks     int    `json:"blocks"`
	Reverse    int    `json:"reverse"`
}

type outInterval struct {
	Streams []outStream `json:"streams"`
	Sum     outSum      `json:"sum"`
}

type outSum struct {
	Start         float64 `json:"start"`
	End           float64 `json:"end"`
	Seconds       float64 `json:"seconds"`
	Bytes         int64   `json:"bytes"`
	BitsPerSecond float64 `json:"bits_per_second"`
	Retransmits   int64   `json:"retransmits"`
	Omitted       bool    `json:"omitted,omitempty"`
	Sender        bool    `json:"sender"`
}

type outStream struct {
	Socket int `json:"socket"`
	outSum
	SndCwnd int64 `json:"snd_cwnd"`
	RTT     int64 `json:"rtt"`
	RTTVar  int64 `json:"rttvar"`
	PMTU    int   `json:"pmtu"`
}

type outEnd struct {
	Streams     []outEndStream `json:"streams"`
	SumSent     outSum         `json:"sum_sent"`
	SumReceived outSum         `json:"sum_received"`
	SenderCC    string         `json:"sender_tcp_congestion"`
	ReceiverCC  string         `json:"receiver_tcp_congestion"`
}

type outEndStream struct {
	Sender   outEndSender `json:"sender"`
	Receiver outEndRecv   `json:"receiver"`
}

type outEndSender struct {
	Socket int `json:"socket"`
	outSum
	MaxSndCwnd int64 `json:"max_snd_cwnd"`
	MaxRTT     int64 `json:"max_rtt"`
	MinRTT     int64 `json:"min_rtt"`
	MeanRTT    int64 `json:"mean_rtt"`
}

type outEndRecv struct {
	Socket int `json:"socket"`
	outSum
}

// document builds the JSON tree for f.
func document(f result.Flow, opt WriteOptions) outDoc {
	start := opt.Epoch.Add(time.Duration(f.StartS * float64(time.Second))).UTC()
	dur := opt.Duration
	if dur == 0 {
		dur = time.Duration((f.EndS - f.StartS) * float64(time.Second))
	}
	d := outDoc{Start: outStart{
		Version:       writeVersion,
		SystemInfo:    "leolab",
		Timestamp:     outTimestamp{Time: start.Format(time.RFC1123), Timesecs: start.Unix()},
		TCPMSSDefault: writeMSS,
		TestStart: outTestStart{Protocol: "TCP", NumStreams: 1, Blksize: writeBlksize,
			Duration: int64(math.Round(dur.Seconds())), Reverse: boolInt(opt.Reverse)},
		Connected: []outConnection{{Socket: writeSocket}},
	}}
	prev := 0.0
	var maxCwnd, maxRTT int64
	for _, iv := range f.Intervals {
		end := iv.T - f.StartS
		s := span(prev, end, iv.Bytes, iv.Retransmits)
		st := outStream{Socket: writeSocket, outSum: s, SndCwnd: int64(iv.CWndBytes),
			RTT: usec(iv.SRTTMs), RTTVar: usec(iv.RTTVarMs), PMTU: 1500}
		maxCwnd, maxRTT = max(maxCwnd, st.SndCwnd), max(maxRTT, st.RTT)
		d.Intervals = append(d.Intervals, outInterval{Streams: []outStream{st}, Sum: s})
		prev = end
	}
	total := span(0, f.EndS-f.StartS, f.BytesAcked, f.Retransmits)
	recv := total
	recv.Sender, recv.Retransmits = false, 0
	d.End = outEnd{
		Streams: []outEndStream{{
			Sender: outEndSender{Socket: writeSocket, outSum: total, MaxSndCwnd: maxCwnd,
				MaxRTT: max(maxRTT, usec(f.MeanRTTMs)), MinRTT: usec(f.MinRTTMs), MeanRTT: usec(f.MeanRTTMs)},
			Receiver: outEndRecv{Socket: writeSocket, outSum: recv},
		}},
		SumSent: total, SumReceived: recv, SenderCC: f.CCA, ReceiverCC: f.CCA,
	}
	return d
}

func span(start, end float64, bytes, retr int64) outSum {
	s := outSum{Start: start, End: end, Seconds: end - start, Bytes: bytes, Retransmits: retr, Sender: true}
	if s.Seconds > 0 {
		s.BitsPerSecond = float64(bytes) * 8 / s.Seconds
	}
	return s
}

func usec(msv float64) int64 { return int64(math.Round(msv * 1000)) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
