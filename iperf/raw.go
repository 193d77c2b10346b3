package iperf

// Raw iperf3 JSON shapes, as written by iperf3 3.x (src/iperf_api.c,
// iperf_json_start / iperf_print_intermediate / iperf_print_results).
// Numbers are float64 because cJSON may print large integers in exponent
// form; pointers mark fields that may be missing.

type rawDoc struct {
	Start     *rawStart     `json:"start"`
	Intervals []rawInterval `json:"intervals"`
	End       *rawEnd       `json:"end"`
	Error     string        `json:"error"`
}

type rawStart struct {
	Version    string `json:"version"`
	SystemInfo string `json:"system_info"`
	Timestamp  *struct {
		Time     string   `json:"time"`
		Timesecs *float64 `json:"timesecs"`
	} `json:"timestamp"`
	TCPMSSDefault float64       `json:"tcp_mss_default"`
	TestStart     *rawTestStart `json:"test_start"`
}

type rawTestStart struct {
	Protocol      string  `json:"protocol"`
	NumStreams    float64 `json:"num_streams"`
	Blksize       float64 `json:"blksize"`
	Omit          float64 `json:"omit"`
	Duration      float64 `json:"duration"`
	Reverse       float64 `json:"reverse"`
	TargetBitrate float64 `json:"target_bitrate"`
}

type rawInterval struct {
	Streams []rawStream `json:"streams"`
}

type rawStream struct {
	Socket        float64  `json:"socket"`
	Start         float64  `json:"start"`
	End           float64  `json:"end"`
	Seconds       float64  `json:"seconds"`
	Bytes         float64  `json:"bytes"`
	BitsPerSecond float64  `json:"bits_per_second"`
	Retransmits   *float64 `json:"retransmits"`
	SndCwnd       *float64 `json:"snd_cwnd"`
	SndWnd        *float64 `json:"snd_wnd"`
	RTT           *float64 `json:"rtt"`
	RTTVar        *float64 `json:"rttvar"`
	PMTU          float64  `json:"pmtu"`
	Omitted       bool     `json:"omitted"`
	Sender        bool     `json:"sender"`
}

type rawEnd struct {
	Streams []struct {
		Sender   *rawTotals `json:"sender"`
		Receiver *rawTotals `json:"receiver"`
	} `json:"streams"`
	SumSent     *rawTotals `json:"sum_sent"`
	SumReceived *rawTotals `json:"sum_received"`
	SenderCC    string     `json:"sender_tcp_congestion"`
	ReceiverCC  string     `json:"receiver_tcp_congestion"`
}

type rawTotals struct {
	Socket        float64  `json:"socket"`
	Start         float64  `json:"start"`
	End           float64  `json:"end"`
	Seconds       float64  `json:"seconds"`
	Bytes         float64  `json:"bytes"`
	BitsPerSecond float64  `json:"bits_per_second"`
	Retransmits   *float64 `json:"retransmits"`
	MaxSndCwnd    *float64 `json:"max_snd_cwnd"`
	MaxSndWnd     *float64 `json:"max_snd_wnd"`
	MaxRTT        *float64 `json:"max_rtt"`
	MinRTT        *float64 `json:"min_rtt"`
	MeanRTT       *float64 `json:"mean_rtt"`
}
