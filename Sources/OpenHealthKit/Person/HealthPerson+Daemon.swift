package import Foundation
package import HealthModel
package import HealthStore

/// The person's side of the daemon's registrations (`health apps`, `health apps approve`): apps that asked to connect
/// to `health serve`, and the person's decision on each.
extension HealthPerson {
    /// Every registration, newest first.
    package func registrations() throws -> [AppRegistrations.Registration] {
        try AppRegistrations(database: database).all()
    }

    /// Approves, denies or revokes the registration `reference` names (its id, or the bundle identifier of its one
    /// pending or approved registration), and returns it as it now is. Revoking makes the app's credential unknown
    /// from the daemon's next request on.
    @discardableResult
    package func decideRegistration(_ reference: String, _ state: AppRegistrations.State) throws -> AppRegistrations.Registration {
        let registrations = AppRegistrations(database: database)
        let registration = try registrations.find(reference)
        try registrations.decide(registration.id, state)
        return try registrations.find(registration.id)
    }
}

/// What apps read and wrote through the daemon (`health access-log`).
extension HealthPerson {
    /// The access log's entries that match, newest first, at most `limit`.
    package func accessLog(app: String? = nil, type: String? = nil, since: Date? = nil, until: Date? = nil,
                           limit: Int = 1_000) throws -> [AccessLog.Entry] {
        try AccessLog(database: database).entries(app: app, type: type, since: since, until: until, limit: limit)
    }
}

/// Authorization requests apps made through the daemon, waiting for the person (`health authorize --pending`).
extension HealthPerson {
    /// The requests waiting, oldest first.
    package func pendingAuthorizationRequests() throws -> [PendingAuthorizations.Request] {
        try PendingAuthorizations(database: database).pending()
    }

    /// The person's answer to a waiting request; false when it no longer waits (the app stopped waiting).
    @discardableResult
    package func answerAuthorizationRequest(_ id: String, _ response: AuthorizationSheet.Response) throws -> Bool {
        try PendingAuthorizations(database: database).respond(id, response)
    }
}

/// Verifiable-record queries apps made through the daemon, whose record-sharing sheets wait for the person
/// (`health authorize --pending`).
extension HealthPerson {
    /// The sheets waiting, oldest first, each with the matching records as they are in the store now.
    package func pendingRecordSharingRequests() throws -> [PendingRecordShares.Request] {
        try PendingRecordShares(database: database).pending()
    }

    /// The person's choice on a waiting sheet (only records it offered can be shared); false when it no longer waits.
    @discardableResult
    package func answerRecordSharingRequest(_ id: String, _ response: RecordSharingSheet.Response) throws -> Bool {
        try PendingRecordShares(database: database).respond(id, response)
    }
}

/// Per-object requests (vision prescriptions) apps made through the daemon, whose sheets wait for the person
/// (`health authorize --pending`, the web Health app), and the grants the person gave.
extension HealthPerson {
    /// The sheets waiting, oldest first, each with its objects as they are in the store now.
    package func pendingObjectReadRequests() throws -> [PendingObjectReads.Request] {
        try PendingObjectReads(database: database).pending()
    }

    /// The person's choice on a waiting sheet (only objects it listed can be allowed); false when it no longer waits.
    @discardableResult
    package func answerObjectReadRequest(_ id: String, _ response: ObjectAuthorizationSheet.Response) throws -> Bool {
        try PendingObjectReads(database: database).respond(id, response)
    }

    /// The objects of `type` `app` may read now — those the person gave it, and those it saved unless the person turned
    /// them off — oldest first.
    package func objectReadGrants(app: String, type: HKSampleType = HKObjectType.visionPrescriptionType()) throws -> [HKSample] {
        try SampleStore(database: database).samples(ofType: type, visibleTo: app)
    }

    /// The medications the person shared with `app` (and did not turn off since), in the order they were added, each with
    /// the UUID its grant names it by.
    package func sharedMedications(app: String) throws -> [SampleStore.TrackedMedication] {
        try SampleStore(database: database).medications(matching: nil, visibleTo: app)
    }

    /// Withdraws `app`'s permission to read object `uuid`; false when it had none.
    @discardableResult
    package func withdrawObjectReadGrant(app: String, uuid: UUID) throws -> Bool {
        try AuthorizationService(database: database).withdrawObjectReadGrant(app: app, uuid: uuid)
    }
}

/// Background deliveries the daemon made to apps' callback URLs (`health deliveries`).
extension HealthPerson {
    /// The deliveries that match, newest first, at most `limit`.
    package func deliveries(app: String? = nil, state: BackgroundDeliveryQueue.State? = nil,
                            limit: Int = 1_000) throws -> [BackgroundDeliveryQueue.Delivery] {
        try BackgroundDeliveryQueue(samples: SampleStore(database: database)).deliveries(app: app, state: state, limit: limit)
    }

    /// Each app's callback URL, by app.
    package func deliveryCallbacks() throws -> [BackgroundDeliveryQueue.Callback] {
        try BackgroundDeliveryQueue(samples: SampleStore(database: database)).callbacks()
    }
}
