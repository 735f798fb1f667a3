import Glibc
import Testing

@testable import DataTableServer

/// `--allow-uid` / `--allow-group`: who is served.
@Suite struct PeerPolicyTests {
    @Test func anEmptyPolicyServesEveryone() {
        #expect(PeerPolicy().admits(PeerCredentials(pid: 1, uid: 1000, gid: 1000)))
        #expect(PeerPolicy().admits(nil))
    }

    @Test func aListedUserOrPrimaryGroupIsServed() {
        let policy = PeerPolicy(uids: [1000], gids: [27])
        #expect(policy.admits(PeerCredentials(pid: 0, uid: 1000, gid: 1000)))
        #expect(policy.admits(PeerCredentials(pid: 0, uid: 2000, gid: 27)))
        #expect(!policy.admits(PeerCredentials(pid: 0, uid: 2000, gid: 2000)))
        #expect(!policy.admits(nil))
    }

    /// Supplementary groups are read from /proc/PID/status.
    @Test func supplementaryGroupsAreReadFromTheProcessStatus() {
        let status = "Name:\tclient\nUid:\t1000\t1000\t1000\t1000\nGroups:\t4 24 27 \nNgid:\t0\n"
        #expect(PeerPolicy.groups(inStatus: status) == [4, 24, 27])
        #expect(PeerPolicy.groups(inStatus: "Groups:\t\n").isEmpty)
        #expect(PeerPolicy.groups(inStatus: "Name:\tx\n").isEmpty)
        let own = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        #expect(PeerPolicy.supplementaryGroups(of: getpid()) == PeerPolicy.groups(inStatus: own))
    }
}
