package campaign

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/leolab/leolab/result"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// resultFetchWait is how long one fetch of results waits before checking
// ctx again.
const resultFetchWait = 2 * time.Second

// Distributed executes runs on `leolab worker` processes through NATS
// JetStream: it publishes every run to the work-queue stream, and collects
// the results from its own results subject. Runs survive worker deaths
// (JetStream redelivers a run whose worker stops heartbeating for AckWait)
// and coordinator restarts (the results consumer is durable).
type Distributed struct {
	URL string
	// AckWait configures the workers' consumer (0: DefaultAckWait).
	AckWait time.Duration
	// Key names the campaign's results subject and durable consumer; give
	// CampaignKey of all the campaign's runs so that a restarted coordinator
	// collects what its workers finished meanwhile ("": the key of the runs
	// given to Execute).
	Key string
}

// Execute publishes runs and hands their outcomes to done as they arrive.
func (d Distributed) Execute(ctx context.Context, runs []Run, done func(Outcome) error) error {
	if len(runs) == 0 {
		return nil
	}
	nc, err := nats.Connect(d.URL, nats.Name("leolab campaign"))
	if err != nil {
		return fmt.Errorf("nats %s: %w", d.URL, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("nats %s: %w", d.URL, err)
	}
	key := d.Key
	if key == "" {
		key = CampaignKey(runs)
	}
	results, err := d.setup(ctx, js, key)
	if err != nil {
		return err
	}
	for _, r := range runs {
		data, err := json.Marshal(task{Run: r, Reply: resultsPrefix + key})
		if err != nil {
			return fmt.Errorf("run %s: %w", r.ID, err)
		}
		if _, err := js.Publish(ctx, runsSubject, data, jetstream.WithMsgID(key+"."+r.ID)); err != nil {
			return fmt.Errorf("nats: publish run %s: %w", r.ID, err)
		}
	}
	return collect(ctx, results, runs, done)
}

// setup creates the streams, the workers' consumer and this campaign's
// durable results consumer.
func (d Distributed) setup(ctx context.Context, js jetstream.JetStream, key string) (jetstream.Consumer, error) {
	if err := ensureStreams(ctx, js); err != nil {
		return nil, err
	}
	ackWait := d.AckWait
	if ackWait <= 0 {
		ackWait = DefaultAckWait
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, RunsStream, jetstream.ConsumerConfig{
		Durable: workerConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: maxDeliver,
	}); err != nil {
		return nil, fmt.Errorf("jetstream consumer %s: %w", workerConsumer, err)
	}
	c, err := js.CreateOrUpdateConsumer(ctx, ResultsStream, jetstream.ConsumerConfig{
		Durable: "coordinator-" + key, FilterSubject: resultsPrefix + key, AckPolicy: jetstream.AckExplicitPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("jetstream results consumer: %w", err)
	}
	return c, nil
}

// collect fetches results until every run has one.
func collect(ctx context.Context, c jetstream.Consumer, runs []Run, done func(Outcome) error) error {
	pending := make(map[string]Run, len(runs))
	for _, r := range runs {
		pending[r.ID] = r
	}
	for len(pending) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch, err := c.Fetch(len(pending), jetstream.FetchMaxWait(resultFetchWait))
		if err != nil {
			return fmt.Errorf("nats: fetch results: %w", err)
		}
		for msg := range batch.Messages() {
			if err := deliver(msg, pending, done); err != nil {
				return err
			}
		}
		if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("nats: fetch results: %w", err)
		}
	}
	return nil
}

// deliver hands one result message to done (once per run) and acks it
// after done has stored it.
func deliver(msg jetstream.Msg, pending map[string]Run, done func(Outcome) error) error {
	var m outcomeMsg
	if err := gunzipJSON(msg.Data(), &m); err != nil {
		msg.Term()
		return nil // not ours to understand; the run stays pending
	}
	r, ok := pending[m.RunID]
	if !ok {
		return msg.Ack() // a duplicate of a run already stored
	}
	o := Outcome{Run: r, Worker: m.Worker, Err: errFromWire(m.Err)}
	if o.Err == nil {
		o.Result = &result.Result{}
		if err := json.Unmarshal(m.Result, o.Result); err != nil {
			o.Result, o.Err = nil, fmt.Errorf("result from %s: %w", m.Worker, err)
		}
	}
	if err := done(o); err != nil {
		return err
	}
	delete(pending, m.RunID)
	return msg.Ack()
}

// CampaignKey names a set of runs: the same campaign gets the same results
// subject and durable consumer after a restart.
func CampaignKey(runs []Run) string {
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	slices.Sort(ids)
	h := sha256.New()
	for _, id := range ids {
		h.Write([]byte(id))
	}
	return hex.EncodeToString(h.Sum(nil))[:idHexDigits]
}
