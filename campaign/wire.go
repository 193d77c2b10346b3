package campaign

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// JetStream layout shared by the coordinator and the workers.
const (
	// RunsStream is the work-queue stream of run specs; every message is
	// delivered to one worker and removed when acknowledged.
	RunsStream  = "LEOLAB_RUNS"
	runsSubject = "leolab.runs"
	// ResultsStream carries results back; each coordinator consumes the
	// subject named in its tasks (leolab.results.<campaign key>).
	ResultsStream  = "LEOLAB_RESULTS"
	resultsPrefix  = "leolab.results."
	workerConsumer = "leolab-workers"
	// dedupWindow is JetStream's duplicate window: a run republished by a
	// restarted coordinator, or a result republished by a worker that died
	// between publishing and acknowledging, is dropped by its message id
	// within it (JetStream default, 2 min).
	dedupWindow = 2 * time.Minute
	// DefaultAckWait is how long a run may go without a sign of life from
	// its worker before JetStream redelivers it: workers heartbeat every
	// AckWait/heartbeatsPerAckWait, so only a dead worker misses it.
	DefaultAckWait       = 60 * time.Second
	heartbeatsPerAckWait = 4
	// maxDeliver bounds redeliveries of a run that kills its workers.
	maxDeliver = 5
)

// task is a run on the wire: what to run and where to send the result.
type task struct {
	Run   Run    `json:"run"`
	Reply string `json:"reply"`
}

// outcomeMsg is a finished run on the wire.
type outcomeMsg struct {
	RunID  string          `json:"run_id"`
	Worker string          `json:"worker"`
	Err    string          `json:"error,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
}

// ensureStreams creates or updates the two streams.
func ensureStreams(ctx context.Context, js jetstream.JetStream) error {
	for _, cfg := range []jetstream.StreamConfig{
		{Name: RunsStream, Subjects: []string{runsSubject}},
		{Name: ResultsStream, Subjects: []string{resultsPrefix + ">"}},
	} {
		cfg.Retention = jetstream.WorkQueuePolicy
		cfg.Storage = jetstream.FileStorage
		cfg.Duplicates = dedupWindow
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("jetstream stream %s: %w", cfg.Name, err)
		}
	}
	return nil
}

// gzipJSON encodes v as gzip-compressed JSON: a 300 s nine-flow result is
// ~1 MB of JSON, the default NATS max payload, and compresses ~10×.
func gzipJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func gunzipJSON(data []byte, v any) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return err
	}
	return nil
}

// errFromWire turns a remote error string back into an error.
func errFromWire(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}
