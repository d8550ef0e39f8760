package io.ricochet.api.server;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The optional allow list per multicast group: which uids and gids may JOIN or SEND (and TRY_SEND) to a group.
 * A group not listed is open to every connected user; a listed group only to a {@link Principal} with a known uid
 * whose uid, or primary gid, is listed for it (so never to TCP connections, whose uid is unknown).
 *
 * <p>Syntax ({@link #parse(String)}; docs/api.md, "Access control"): entries separated by {@code ;}, each
 * {@code GROUP:ID[,ID...]}, where GROUP is a group id (0 or more) and each ID is {@code uid=N} or {@code gid=N},
 * numeric; for example {@code 5:uid=1000,gid=2000;7:uid=0}. A group may appear once; blanks around the parts are
 * ignored; the empty string is no list.
 */
public final class GroupAccess {
    /** No allow list: every group is open. */
    public static final GroupAccess OPEN = new GroupAccess(Map.of(), "");
    /** Most groups one list may name, so a setting cannot grow memory without bound. */
    public static final int MAX_GROUPS = 65_536;

    private final Map<Integer, Rule> rules;
    private final String text;

    private record Rule(Set<Integer> uids, Set<Integer> gids) {
    }

    private GroupAccess(Map<Integer, Rule> rules, String text) {
        this.rules = rules;
        this.text = text;
    }

    /**
     * Parses an allow list.
     *
     * @throws IllegalArgumentException naming the faulty entry and what is expected there
     */
    public static GroupAccess parse(String text) {
        if (text == null || text.isBlank()) {
            return OPEN;
        }
        Map<Integer, Rule> rules = new TreeMap<>();
        for (String entry : text.split(";", -1)) {
            String e = entry.strip();
            if (e.isEmpty()) {
                throw bad(entry, "an empty entry (two ';' in a row, or one at an end)");
            }
            int colon = e.indexOf(':');
            if (colon < 0) {
                throw bad(e, "no ':' between the group and its ids");
            }
            int group = number(e, e.substring(0, colon).strip(), "group");
            if (rules.containsKey(group)) {
                throw bad(e, "group " + group + " is listed twice; list all its ids in one entry");
            }
            Set<Integer> uids = new TreeSet<>();
            Set<Integer> gids = new TreeSet<>();
            for (String id : e.substring(colon + 1).split(",", -1)) {
                String i = id.strip();
                if (i.startsWith("uid=")) {
                    uids.add(number(e, i.substring(4).strip(), "uid"));
                } else if (i.startsWith("gid=")) {
                    gids.add(number(e, i.substring(4).strip(), "gid"));
                } else {
                    throw bad(e, "'" + i + "' is neither uid=N nor gid=N");
                }
            }
            rules.put(group, new Rule(Set.copyOf(uids), Set.copyOf(gids)));
            if (rules.size() > MAX_GROUPS) {
                throw new IllegalArgumentException("the allow list names more than " + MAX_GROUPS + " groups");
            }
        }
        return new GroupAccess(Map.copyOf(rules), text.strip());
    }

    private static int number(String entry, String value, String what) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(entry, what + " '" + value + "' is not a number from 0 to " + Integer.MAX_VALUE);
    }

    private static IllegalArgumentException bad(String entry, String why) {
        return new IllegalArgumentException("group access entry '" + entry + "': " + why
                + "; expected GROUP:uid=N,gid=N;GROUP:... such as 5:uid=1000,gid=2000;7:uid=0");
    }

    /** Whether {@code principal} may join and send to {@code group}. */
    public boolean allows(Principal principal, int group) {
        if (rules.isEmpty()) {
            return true;   // no list, the default: no lookup (and no boxed group id) per SEND
        }
        Rule rule = rules.get(group);
        if (rule == null) {
            return true;
        }
        return principal.kind() == Principal.Kind.UID
                && (rule.uids().contains(principal.uid()) || rule.gids().contains(principal.gid()));
    }

    /** Whether the list names {@code group} (it is restricted). */
    public boolean restricts(int group) {
        return rules.containsKey(group);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroupAccess other && rules.equals(other.rules);
    }

    @Override
    public int hashCode() {
        return rules.hashCode();
    }

    /** The list as it was given. */
    @Override
    public String toString() {
        return text;
    }
}
