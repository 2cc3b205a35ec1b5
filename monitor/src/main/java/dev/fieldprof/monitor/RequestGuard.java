package dev.fieldprof.monitor;

import java.net.InetAddress;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether the monitor answers a request, from its {@code Host} and {@code Origin} headers.
 *
 * <p>{@code Host} must name this server: {@code localhost}, a loopback address, the address it was
 * asked to bind, any IP address when it binds all interfaces, or a name given with {@code
 * --allowed-host}. A page of another site whose name was re-pointed at this machine (DNS rebinding)
 * sends its own name and is refused. {@code Origin}, when a browser sends it, must be this server
 * as the request named it ({@code http://HOST[:PORT]}): the JSON and the event stream are not for
 * other sites' scripts.
 */
final class RequestGuard {
    private final Set<String> names = new HashSet<>();
    private final boolean anyAddress;

    /**
     * @param bindHost the host the server was asked to listen on
     * @param allowedHosts further host names clients may use, e.g. behind a proxy
     */
    RequestGuard(String bindHost, Set<String> allowedHosts) {
        names.add("localhost");
        names.add("127.0.0.1");
        names.add("[::1]");
        names.add(bindHost.toLowerCase(Locale.ROOT));
        for (String host : allowedHosts) {
            names.add(host.toLowerCase(Locale.ROOT));
        }
        anyAddress = bindHost.equals("0.0.0.0") || bindHost.equals("::") || bindHost.isEmpty();
    }

    /** Why a request with these headers is refused, in one line, or null to answer it. */
    String refusal(String host, String origin, boolean checkOrigin) {
        if (host == null || host.isBlank()) {
            return "a Host header is required";
        }
        String name = hostName(host).toLowerCase(Locale.ROOT);
        if (!names.contains(name) && !(anyAddress && isAddressLiteral(name))) {
            return "Host '"
                    + printable(host)
                    + "' is not this monitor's address (allow it with --allowed-host)";
        }
        if (checkOrigin && origin != null && !origin.equalsIgnoreCase("http://" + host.strip())) {
            return "cross-origin request from '" + printable(origin) + "' refused";
        }
        return null;
    }

    /** The host of a {@code Host} header value, without its port. */
    private static String hostName(String header) {
        String value = header.strip();
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            return close < 0 ? value : value.substring(0, close + 1);
        }
        int colon = value.lastIndexOf(':');
        return colon < 0 ? value : value.substring(0, colon);
    }

    /** True for a literal IPv4 or bracketed IPv6 address: no DNS name can stand behind it. */
    private static boolean isAddressLiteral(String name) {
        String bare =
                name.startsWith("[") && name.endsWith("]")
                        ? name.substring(1, name.length() - 1)
                        : name;
        if (!bare.matches("[0-9.]+|[0-9a-f:.]*:[0-9a-f:.]*")) {
            return false; // never resolve a name here
        }
        try {
            InetAddress.getByName(bare);
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The header value with anything but printable ASCII replaced, bounded. */
    private static String printable(String value) {
        String bounded = value.length() > 80 ? value.substring(0, 80) + "..." : value;
        return bounded.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
