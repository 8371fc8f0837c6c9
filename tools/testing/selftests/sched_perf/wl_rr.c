// SPDX-License-Identifier: GPL-2.0
/*
 * Request-response workload with netperf *_RR semantics: N client/server
 * pairs over loopback, one transaction in flight per pair, a REQ-byte
 * request answered by a RSP-byte response (1 and 1 by default), for a fixed
 * time.  TCP and SCTP (one-to-one, SOCK_STREAM, no libsctp) over a
 * connection, UDP as datagram ping-pong with a bounded wait for a lost
 * datagram.  Every pair starts at one barrier; ports are ephemeral.
 *
 * This file makes load and times it.  It knows nothing of counters.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "histo.h"
#include "opts.h"
#include "tasks.h"
#include "workload.h"

#ifndef SCTP_NODELAY
#define SCTP_NODELAY 3		/* <linux/sctp.h>; not every libc has it */
#endif

#define MAX_MSG		65507	/* largest UDP payload */
#define MAX_PAIRS	65536
#define STALL_SECONDS	10	/* a stream peer silent this long is dead */
#define UDP_MAX_LOSSES	10	/* consecutive lost datagrams that end a run */
/*
 * A server waits for its client's connection and first request while all
 * pairs are set up: bounded, so that a server whose controller and client
 * vanished gives up even if nothing killed it.
 */
#define SETUP_SECONDS	60

enum rr_proto { RR_TCP, RR_UDP, RR_SCTP };

static const char *const proto_name[] = { "TCP", "UDP", "SCTP" };

static struct {
	enum rr_proto proto;
	const char *prog;
	unsigned int req, rsp, pairs, udp_timeout_ms;
	double duration;
	bool ipv6, nodelay, threads, duration_set, pairs_set;
} rr = {
	.req = 1,
	.rsp = 1,
	.udp_timeout_ms = 1000,
};

/* What one pair did in the last iteration; shared with worker processes. */
struct pair_result {
	uint64_t transactions, lost, elapsed_ns;
	int sndbuf, rcvbuf;
	struct histo latency;
};

struct pair {
	int server_fd;		/* listening (stream) or bound (UDP) socket */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	struct pair_result *res;
	struct start_barrier *barrier;
};

static struct pair_result *results;	/* rr.pairs entries, MAP_SHARED */
static struct histo all_latency;	/* every measured transaction */
static uint64_t all_lost;

static int parse_sizes(const char *prog, const struct opt_spec *o,
		       const char *arg)
{
	char req[32], rsp[32];
	unsigned long v;

	/* netperf -r REQ,RSP; a single number sets both */
	if (sscanf(arg, "%31[^,],%31s", req, rsp) != 2) {
		snprintf(req, sizeof(req), "%s", arg);
		snprintf(rsp, sizeof(rsp), "%s", arg);
	}
	if (opt_ulong(prog, "--sizes (request)", req, 1, MAX_MSG, &v))
		return WL_ERROR;
	rr.req = v;
	if (opt_ulong(prog, "--sizes (response)", rsp, 1, MAX_MSG, &v))
		return WL_ERROR;
	rr.rsp = v;
	return 0;
}

static const struct opt_spec rr_opts[] = {
	OPT_CALLBACK('r', "sizes", "REQ[,RSP]", parse_sizes,
		     "request and response bytes (1,1)"),
	OPT_DOUBLE('l', "duration", "SEC", &rr.duration, 0.1, 86400,
		   "seconds per iteration (default: budget / iterations)",
		   .given = &rr.duration_set),
	OPT_UINT('n', "pairs", "N", &rr.pairs, 1, MAX_PAIRS,
		 "client/server pairs (default: --nr-threads)",
		 .given = &rr.pairs_set),
	OPT_SET('6', "ipv6", &rr.ipv6, true, "over ::1 instead of 127.0.0.1"),
	OPT_SET('D', "nodelay", &rr.nodelay, true, "TCP_NODELAY / SCTP_NODELAY"),
	OPT_SET('P', "process", &rr.threads, false,
		"pairs of processes (default)"),
	OPT_SET('T', "threads", &rr.threads, true, "pairs of threads"),
	OPT_UINT(0, "udp-timeout", "MS", &rr.udp_timeout_ms, 1, 60000,
		 "wait for a lost UDP datagram (1000)"),
	OPT_END(),
};

static void rr_set_instances(unsigned int n, bool explicit)
{
	if (!rr.pairs_set)
		rr.pairs = n;
}

static int sock_type(void)
{
	return rr.proto == RR_UDP ? SOCK_DGRAM : SOCK_STREAM;
}

static int sock_protocol(void)
{
	return rr.proto == RR_SCTP ? IPPROTO_SCTP : 0;
}

static int new_socket(void)
{
	return socket(rr.ipv6 ? AF_INET6 : AF_INET, sock_type() | SOCK_CLOEXEC,
		      sock_protocol());
}

/* SCTP is often a module: load it when we may, as LKP does. */
static int sctp_available(char *why, size_t len)
{
	int fd = new_socket();

	if (fd < 0 && (errno == EPROTONOSUPPORT || errno == ESOCKTNOSUPPORT) &&
	    geteuid() == 0 && !system("modprobe sctp >/dev/null 2>&1"))
		fd = new_socket();
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	snprintf(why, len, "SCTP not available: %s (CONFIG_IP_SCTP; modprobe sctp %s)",
		 strerror(errno), geteuid() ? "needs root" : "failed");
	return WL_SKIP;
}

static int rr_prepare(char *why, size_t len)
{
	int fd;

	if (rr.proto == RR_SCTP && sctp_available(why, len))
		return WL_SKIP;
	fd = new_socket();
	if (fd < 0) {
		snprintf(why, len, "cannot open a %s socket: %s", rr.ipv6 ? "IPv6" : "IPv4",
			 strerror(errno));
		return WL_SKIP;
	}
	close(fd);
	/* threads share one fd table: 3 sockets per pair */
	if (task_room_for((rlim_t)rr.pairs * (rr.threads ? 3 : 2) + 64,
			  rr.threads ? 0 : 2 * rr.pairs, why, len))
		return WL_SKIP;
	results = mmap(NULL, rr.pairs * sizeof(*results), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED) {
		fprintf(stderr, "%s: cannot map results: %s\n", rr.prog, strerror(errno));
		return WL_ERROR;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int rr_fit_budget(double seconds)
{
	if (!rr.duration_set)
		rr.duration = seconds;
	return 0;
}

static void set_timeout(int fd, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* The longest a server waits for its client: set-up, then one iteration. */
static unsigned int server_wait_ms(void)
{
	return (SETUP_SECONDS + rr.duration + STALL_SECONDS) * 1000;
}

static void set_nodelay(int fd)
{
	int one = 1;

	if (!rr.nodelay || rr.proto == RR_UDP)
		return;
	if (rr.proto == RR_SCTP)
		setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
	else
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int fail(const char *who, const char *what)
{
	fprintf(stderr, "%s: %s: %s: %s\n", rr.prog, who, what,
		errno == EAGAIN ? "timed out (peer stalled or died?)" : strerror(errno));
	return 1;
}

/* Stream I/O of exactly @len bytes: 1 done, 0 clean EOF at the start, -1 error. */
static int send_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = send(fd, buf + done, len - done, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		done += r;
	}
	return 1;
}

static int recv_all(int fd, char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = recv(fd, buf + done, len - done, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ECONNRESET;
			return done ? -1 : 0;
		}
		done += r;
	}
	return 1;
}

static int stream_server(void *arg)
{
	struct pair *p = arg;
	char *buf = malloc(rr.req > rr.rsp ? rr.req : rr.rsp);
	int fd, r;

	set_timeout(p->server_fd, server_wait_ms());
	fd = accept4(p->server_fd, NULL, NULL, SOCK_CLOEXEC);
	close(p->server_fd);
	if (fd < 0 || !buf)
		return fail("server", "accept");
	set_nodelay(fd);
	set_timeout(fd, server_wait_ms());
	memset(buf, 'r', rr.rsp);
	/* the client closes when its time is up: EOF between requests */
	while ((r = recv_all(fd, buf, rr.req)) > 0)
		if (send_all(fd, buf, rr.rsp) < 0)
			return fail("server", "send");
	if (r < 0)
		return fail("server", "recv");
	close(fd);
	free(buf);
	return 0;
}

static void record(struct pair_result *res, uint64_t *prev)
{
	uint64_t t = now_ns();

	histo_record(&res->latency, t - *prev);
	res->transactions++;
	wl_test_work();
	*prev = t;
}

static void note_buffers(int fd, struct pair_result *res)
{
	socklen_t len = sizeof(int);

	getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &res->sndbuf, &len);
	len = sizeof(int);
	getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &res->rcvbuf, &len);
}

/*
 * Connect, then wait at the barrier, so that set-up is not timed.  Returns
 * the socket, or -1 after printing why.
 */
static int client_connect(struct pair *p, unsigned int timeout_ms)
{
	int fd = new_socket();

	if (!rr.threads)
		close(p->server_fd);	/* the server's, inherited */
	if (fd < 0) {
		fail("client", "socket");
		return -1;
	}
	set_nodelay(fd);
	set_timeout(fd, timeout_ms);
	if (connect(fd, (struct sockaddr *)&p->addr, p->addrlen)) {
		fail("client", "connect");
		close(fd);
		return -1;
	}
	note_buffers(fd, p->res);
	if (barrier_pass(p->barrier)) {
		fail("client", "start barrier");
		close(fd);
		return -1;
	}
	return fd;
}

static int stream_client(void *arg)
{
	struct pair *p = arg;
	struct pair_result *res = p->res;
	char *buf = malloc(rr.req > rr.rsp ? rr.req : rr.rsp);
	uint64_t start, deadline, t;
	int fd, r;

	if (!buf)
		return fail("client", "malloc");
	memset(buf, 'q', rr.req);
	fd = client_connect(p, STALL_SECONDS * 1000);
	if (fd < 0)
		return 1;
	start = t = now_ns();
	deadline = start + rr.duration * 1e9;
	while (t < deadline) {
		if (send_all(fd, buf, rr.req) < 0)
			return fail("client", "send");
		r = recv_all(fd, buf, rr.rsp);
		if (r <= 0)
			return fail("client", r ? "recv" : "server closed the connection");
		record(res, &t);
	}
	res->elapsed_ns = t - start;
	close(fd);
	free(buf);
	return 0;
}

/* UDP: a zero-length datagram tells the server that the client is done. */
static int udp_server(void *arg)
{
	struct pair *p = arg;
	size_t len = rr.req > rr.rsp ? rr.req : rr.rsp;
	char *buf = malloc(len);
	struct sockaddr_storage from;

	if (!buf)
		return fail("server", "malloc");
	memset(buf, 'r', len);
	set_timeout(p->server_fd, server_wait_ms());
	for (;;) {
		socklen_t fromlen = sizeof(from);
		ssize_t r = recvfrom(p->server_fd, buf, len, 0,
				     (struct sockaddr *)&from, &fromlen);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail("server", "recvfrom");
		if (r == 0)
			break;
		if (sendto(p->server_fd, buf, rr.rsp, 0, (struct sockaddr *)&from,
			   fromlen) < 0)
			return fail("server", "sendto");
	}
	close(p->server_fd);
	free(buf);
	return 0;
}

static int udp_client(void *arg)
{
	struct pair *p = arg;
	struct pair_result *res = p->res;
	char *buf = malloc(rr.req > rr.rsp ? rr.req : rr.rsp);
	unsigned int losses = 0, i;
	uint64_t start, deadline, t;
	int fd;

	if (!buf)
		return fail("client", "malloc");
	memset(buf, 'q', rr.req);
	fd = client_connect(p, rr.udp_timeout_ms);
	if (fd < 0)
		return 1;
	start = t = now_ns();
	deadline = start + rr.duration * 1e9;
	while (t < deadline) {
		if (send(fd, buf, rr.req, 0) < 0)
			return fail("client", "send");
		if (recv(fd, buf, rr.rsp, 0) >= 0) {
			losses = 0;
			record(res, &t);
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN || ++losses >= UDP_MAX_LOSSES)
			return fail("client", "recv (lost datagrams)");
		res->lost++;	/* a lost datagram costs one timeout */
		t = now_ns();
	}
	res->elapsed_ns = t - start;
	for (i = 0; i < 3; i++)	/* loopback does not lose it, but be sure */
		send(fd, buf, 0, 0);
	close(fd);
	free(buf);
	return 0;
}

static int open_server(struct pair *p)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&p->addr;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&p->addr;

	memset(&p->addr, 0, sizeof(p->addr));
	if (rr.ipv6) {
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_loopback;
		p->addrlen = sizeof(*in6);
	} else {
		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		p->addrlen = sizeof(*in);
	}
	p->server_fd = new_socket();
	if (p->server_fd < 0)
		return -1;
	/* port 0: the kernel picks a free ephemeral port */
	if (bind(p->server_fd, (struct sockaddr *)&p->addr, p->addrlen) ||
	    getsockname(p->server_fd, (struct sockaddr *)&p->addr, &p->addrlen) ||
	    (rr.proto != RR_UDP && listen(p->server_fd, 1))) {
		close(p->server_fd);
		return -1;
	}
	return 0;
}

static int spawn_pair(struct task_set *ts, struct pair *p)
{
	bool udp = rr.proto == RR_UDP;

	if (open_server(p)) {
		fprintf(stderr, "%s: server socket: %s\n", rr.prog, strerror(errno));
		return -1;
	}
	if (task_set_spawn(ts, udp ? udp_server : stream_server, p) ||
	    task_set_spawn(ts, udp ? udp_client : stream_client, p)) {
		fprintf(stderr, "%s: fork/pthread_create failed\n", rr.prog);
		return -1;
	}
	if (!rr.threads)
		close(p->server_fd);	/* the server process has its own */
	return 0;
}

static void collect(struct wl_result *res)
{
	unsigned int i;

	res->ops = 0;
	for (i = 0; i < rr.pairs; i++) {
		res->ops += results[i].transactions;
		all_lost += results[i].lost;
		histo_merge(&all_latency, &results[i].latency);
	}
}

static int rr_run_once(struct wl_result *res)
{
	struct task_set *ts = task_set_new(rr.threads ? TASK_THREAD : TASK_PROCESS,
					   2 * rr.pairs);
	struct pair *pairs = calloc(rr.pairs, sizeof(*pairs));
	struct start_barrier barrier;
	unsigned int i;
	int ret = WL_ERROR;

	if (!ts || !pairs || barrier_init(&barrier)) {
		fprintf(stderr, "%s: out of memory or fds\n", rr.prog);
		goto out_free;
	}
	memset(results, 0, rr.pairs * sizeof(*results));
	for (i = 0; i < rr.pairs; i++) {
		pairs[i].res = &results[i];
		pairs[i].barrier = &barrier;
		if (spawn_pair(ts, &pairs[i]))
			goto out_abort;
	}
	switch (barrier_window(&barrier, rr.pairs, ts, &res->elapsed_ns)) {
	case WINDOW_NOT_READY:
		fprintf(stderr, "%s: a client or server failed before the start\n", rr.prog);
		goto out_abort;
	case WINDOW_FAILED:
		fprintf(stderr, "%s: a client or server failed\n", rr.prog);
		goto out_barrier;
	}
	collect(res);
	ret = 0;
	goto out_barrier;
out_abort:
	task_set_abort(ts);
out_barrier:
	barrier_destroy(&barrier);
out_free:
	task_set_free(ts);
	free(pairs);
	return ret;
}

static const char *const rr_variants[] = {
	"ipv4-process", "ipv4-threads", "ipv6-process", "ipv6-threads", NULL,
};

static const char *rr_variant(void)
{
	return rr_variants[(rr.ipv6 ? 2 : 0) + rr.threads];
}

/* netperf's banner and column titles, so its parsers read our lines. */
static void rr_banner(void)
{
	printf("%s%s REQUEST/RESPONSE TEST from %s () port 0 %s to %s () port 0 %s : %u pairs, %s mode%s\n",
	       rr.proto == RR_SCTP ? "" : "MIGRATED ", proto_name[rr.proto],
	       rr.ipv6 ? "::" : "0.0.0.0", rr.ipv6 ? "AF_INET6" : "AF_INET",
	       rr.ipv6 ? "::1" : "127.0.0.1", rr.ipv6 ? "AF_INET6" : "AF_INET",
	       rr.pairs, rr.threads ? "threaded" : "process", rr.nodelay ? ", nodelay" : "");
	printf("Local /Remote\n");
	printf("Socket Size   Request  Resp.   Elapsed  Trans.\n");
	printf("Send   Recv   Size     Size    Time     Rate\n");
	printf("bytes  Bytes  bytes    bytes   secs.    per sec\n\n");
}

/* One netperf data line per pair: LKP sums them and averages per instance. */
static void rr_report_iteration(const struct wl_result *res)
{
	unsigned int i;

	for (i = 0; i < rr.pairs; i++) {
		const struct pair_result *p = &results[i];
		double secs = p->elapsed_ns / 1e9;

		printf("%-6d %-6d %-6u   %-6u  %-6.2f   %7.2f\n", p->sndbuf, p->rcvbuf,
		       rr.req, rr.rsp, secs, secs > 0 ? p->transactions / secs : 0);
	}
}

static void rr_publish(const struct wl_summary *s,
		       void (*add)(const char *name, const char *unit, double v))
{
	/* LKP: Throughput_tps is the mean per instance, _total_ the sum */
	add("Throughput_total_tps", "/s", s->ops_per_sec_median);
	add("Throughput_tps", "/s", s->ops_per_sec_median / (rr.pairs ? rr.pairs : 1));
	add("latency_p50_us", "us", histo_quantile(&all_latency, 0.50) / 1e3);
	add("latency_p90_us", "us", histo_quantile(&all_latency, 0.90) / 1e3);
	add("latency_p99_us", "us", histo_quantile(&all_latency, 0.99) / 1e3);
	add("latency_p999_us", "us", histo_quantile(&all_latency, 0.999) / 1e3);
	add("pairs", "", rr.pairs);
	add("lost_datagrams", "", all_lost);
}

#define RR_WORKLOAD(ident, proto_id, prog_name)				\
	static void ident##_init(void)					\
	{								\
		rr.proto = proto_id;					\
		rr.prog = prog_name;					\
	}								\
	const struct workload ident##_workload = {			\
		.name = prog_name,					\
		.op_name = "transaction",				\
		.ops_name = "transactions",				\
		.opts = rr_opts,					\
		.default_nr_threads_pct = 200,				\
		.variants = rr_variants,				\
		.init = ident##_init,					\
		.set_instances = rr_set_instances,			\
		.prepare = rr_prepare,					\
		.fit_budget = rr_fit_budget,				\
		.banner = rr_banner,					\
		.run_once = rr_run_once,				\
		.report_iteration = rr_report_iteration,		\
		.publish = rr_publish,					\
		.variant = rr_variant,					\
	}

RR_WORKLOAD(tcp_rr, RR_TCP, "tcp_rr");
RR_WORKLOAD(udp_rr, RR_UDP, "udp_rr");
RR_WORKLOAD(sctp_rr, RR_SCTP, "sctp_rr");
