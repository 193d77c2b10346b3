package irtt

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/leolab/leolab/internal/bounded"
	"github.com/leolab/leolab/internal/quantity"
)

// Reader limits.
const (
	// maxGzipRatio bounds a gzip stream's decompressed size by its
	// compressed size: irtt's JSON deflates ~10:1 (a 100-packet capture:
	// 111 kB → 11 kB), deflate's own maximum is ~1032:1.
	maxGzipRatio = 256
	// maxSpan bounds the time from the first send to any other stamp:
	// a run's longest duration (internal/quantity).
	maxSpan = quantity.MaxDuration
	// maxDelay bounds a one-way delay or RTT, either sign (clock offsets
	// make one-way delays negative).
	maxDelay = quantity.MaxDelay
	// maxLength is the largest irtt packet length that fits a datagram
	// (65507 bytes of UDP payload over IPv4).
	maxLength = 65507
)

// Loss says which way a packet was lost (irtt's "lost": false, true,
// true_up, true_down).
type Loss uint8

const (
	// Delivered: the reply came back.
	Delivered Loss = iota
	// Lost: no reply, direction unknown (irtt's "true": the server's
	// receive window did not say).
	Lost
	// LostUp: the request never reached the server.
	LostUp
	// LostDown: the server received the request; its reply was lost.
	LostDown
)

// Packet is one round trip. Times are since the capture's Epoch (the
// client's first send, wall clock); server times are on the server's
// clock.
type Packet struct {
	Seq                    int
	ClientSend, ClientRecv time.Duration
	ServerRecv, ServerSend time.Duration
	// Up and Down are irtt's send and receive delays, RTT its round-trip
	// time (server processing excluded); valid when HasUp, HasDown, HasRTT.
	Up, Down, RTT          time.Duration
	HasUp, HasDown, HasRTT bool
	HasServerSend, HasRecv bool
	Loss                   Loss
}

// Capture is one irtt client run.
type Capture struct {
	// Epoch is the wall-clock time of the first send.
	Epoch time.Time
	// Interval is the client's send interval; Length the packet length
	// (UDP payload bytes); IPv6 whether it ran over IPv6.
	Interval time.Duration
	Length   int
	IPv6     bool
	Version  string
	Packets  []Packet
	// PacketsSent and PacketsReceived are irtt's own counts (its stats;
	// received counts duplicates too).
	PacketsSent, PacketsReceived int64
}

// json layout of irtt's output (irtt's result.go, time.go; json_format 1).
type jsonTime struct {
	Wall      int64 `json:"wall"`
	Monotonic int64 `json:"monotonic"`
}

type jsonStamp struct {
	Receive jsonTime `json:"receive"`
	Send    jsonTime `json:"send"`
}

type jsonRoundTrip struct {
	Seqno      *int64          `json:"seqno"`
	Lost       json.RawMessage `json:"lost"`
	Timestamps struct {
		Client jsonStamp `json:"client"`
		Server jsonStamp `json:"server"`
	} `json:"timestamps"`
	Delay struct {
		Receive *int64 `json:"receive"`
		RTT     *int64 `json:"rtt"`
		Send    *int64 `json:"send"`
	} `json:"delay"`
}

type jsonCapture struct {
	Version struct {
		IRTT       string `json:"irtt"`
		JSONFormat int    `json:"json_format"`
	} `json:"version"`
	Config *struct {
		IPVersion string `json:"ip_version"`
		Params    struct {
			Interval int64 `json:"interval"`
			Length   int64 `json:"length"`
		} `json:"params"`
	} `json:"config"`
	Stats struct {
		PacketsSent     int64 `json:"packets_sent"`
		PacketsReceived int64 `json:"packets_received"`
	} `json:"stats"`
	RoundTrips *[]jsonRoundTrip `json:"round_trips"`
}

// IsCapture reports whether data (plain or gzipped) looks like irtt's JSON
// output: gzip, or an object whose first bytes hold irtt's keys.
func IsCapture(data []byte) bool {
	if isGzip(data) {
		return true
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return false
	}
	_, rt := top["round_trips"]
	_, sys := top["system_info"]
	return rt && sys
}

func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// Read reads an irtt capture from data (irtt's JSON, or gzipped); name
// names it in errors.
func Read(name string, data []byte) (*Capture, error) {
	if isGzip(data) {
		var err error
		if data, err = gunzip(data); err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
	}
	var j jsonCapture
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("%s: not irtt JSON: %w", name, jsonOffset(err))
	}
	c, err := convert(&j)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// gunzip decompresses up to maxGzipRatio times the compressed size.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	limit := int64(len(data)) * maxGzipRatio
	out, over, err := bounded.Read(zr, limit)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("decompresses to more than %d× its %d bytes: not an irtt capture", maxGzipRatio, len(data))
	}
	return out, nil
}

func jsonOffset(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("byte %d: %w", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Errorf("byte %d: field %s: %w", te.Offset, te.Field, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Errorf("truncated: %w", err)
	}
	return err
}
