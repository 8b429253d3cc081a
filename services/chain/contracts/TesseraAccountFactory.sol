// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {SimpleAccount} from "@account-abstraction/contracts/accounts/SimpleAccount.sol";
import {TesseraAccount} from "./TesseraAccount.sol";

/**
 * SimpleAccountFactory (v0.8) for TesseraAccount, with one difference: anyone may call createAccount, not only the
 * EntryPoint's SenderCreator, because an ERC-6492 verifier deploys a counterfactual account through it in a simulation
 * before it asks the account about a signature. The account at an address is always the one of its owner: the owner is
 * part of what the address is computed from.
 */
contract TesseraAccountFactory {
    TesseraAccount public immutable accountImplementation;

    constructor(IEntryPoint anEntryPoint) {
        accountImplementation = new TesseraAccount(anEntryPoint);
    }

    function createAccount(address owner, uint256 salt) public returns (TesseraAccount) {
        address account = getAddress(owner, salt);
        if (account.code.length > 0) return TesseraAccount(payable(account));
        return TesseraAccount(payable(new ERC1967Proxy{salt: bytes32(salt)}(address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner)))));
    }

    function getAddress(address owner, uint256 salt) public view returns (address) {
        return Create2.computeAddress(
            bytes32(salt),
            keccak256(abi.encodePacked(type(ERC1967Proxy).creationCode, abi.encode(address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner)))))
        );
    }
}
