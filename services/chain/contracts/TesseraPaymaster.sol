// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Paymaster} from "@openzeppelin/contracts/account/paymaster/Paymaster.sol";
import {PaymasterSigner} from "@openzeppelin/contracts/account/paymaster/extensions/PaymasterSigner.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {IEntryPoint} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {SignerECDSA} from "@openzeppelin/contracts/utils/cryptography/signers/SignerECDSA.sol";

/**
 * A verifying paymaster for EntryPoint v0.8 (OpenZeppelin's PaymasterSigner): it pays for a UserOperation that its
 * signer (the paymaster service's key) approved by signing the operation's fields and a validity window (EIP-712,
 * domain "TesseraPaymaster" version 1). paymasterData is validAfter (6 bytes), validUntil (6 bytes), the signature.
 */
contract TesseraPaymaster is PaymasterSigner, SignerECDSA, Ownable {
    IEntryPoint private immutable _entryPoint;

    constructor(IEntryPoint anEntryPoint, address signerAddress, address owner) EIP712("TesseraPaymaster", "1") SignerECDSA(signerAddress) Ownable(owner) {
        _entryPoint = anEntryPoint;
    }

    /// The EntryPoint it serves (OpenZeppelin's default is v0.9's).
    function entryPoint() public view virtual override returns (IEntryPoint) {
        return _entryPoint;
    }

    function deposit() public payable {
        _deposit(msg.value);
    }

    function withdraw(address payable to, uint256 value) public onlyOwner {
        _withdraw(to, value);
    }

    function addStake(uint32 unstakeDelaySec) public payable onlyOwner {
        _addStake(msg.value, unstakeDelaySec);
    }
}
