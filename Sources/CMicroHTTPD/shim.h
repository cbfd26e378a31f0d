// libmicrohttpd 0.9.75 for Swift: MHD_start_daemon, MHD_get_connection_info and MHD_get_daemon_info are variadic,
// which Swift cannot call, so each use gets one inline wrapper. Nothing else lives here; only HTTPServing imports it.
#ifndef PIPCTL_CMICROHTTPD_SHIM_H
#define PIPCTL_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// The limits MHD enforces itself, in the order `cmhd_start` takes them.
struct cmhd_limits {
    unsigned int connection_limit;      // MHD_OPTION_CONNECTION_LIMIT: open connections in all
    unsigned int per_ip_limit;          // MHD_OPTION_PER_IP_CONNECTION_LIMIT: 0 for none
    unsigned int idle_timeout_seconds;  // MHD_OPTION_CONNECTION_TIMEOUT: a connection silent this long is closed
    size_t memory_limit;                // MHD_OPTION_CONNECTION_MEMORY_LIMIT: request line, headers and read buffer
    unsigned int threads;               // MHD_OPTION_THREAD_POOL_SIZE
};

// Leaves the URL and the query's names and values as the client sent them (Swift decodes them, refusing `%00`).
static inline size_t cmhd_unescape_none(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls; (void)c;
    return strlen(s);
}

// MHD_start_daemon with its options as one array. `address` is an IPv4 or IPv6 socket address (its port included).
static inline struct MHD_Daemon *cmhd_start(unsigned int flags, const struct sockaddr *address,
                                            MHD_AccessHandlerCallback handler, void *handler_context,
                                            MHD_RequestCompletedCallback completed, void *completed_context,
                                            struct cmhd_limits limits) {
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *)address },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t)limits.connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)limits.per_ip_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)limits.idle_timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits.memory_limit, NULL },
        { MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)limits.threads, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)(void *)completed, completed_context },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)(void *)cmhd_unescape_none, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// The port the daemon listens on (the one the system chose for port 0), or 0.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

// The client's numeric address into `buffer` (empty when unknown).
static inline void cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t length) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return;
    const struct sockaddr *a = info->client_addr;
    if (a->sa_family == AF_INET) inet_ntop(AF_INET, &((const struct sockaddr_in *)a)->sin_addr, buffer, (socklen_t)length);
    else if (a->sa_family == AF_INET6) inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)a)->sin6_addr, buffer, (socklen_t)length);
}

#endif
